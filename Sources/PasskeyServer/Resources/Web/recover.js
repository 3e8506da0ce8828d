"use strict";
// /recover#<attempt>.<token>: account recovery on a new device. The token comes in the fragment, which the browser
// never sends; it goes out only in the calls of the recovery's client API.
(() => {
  const status = document.getElementById("status");
  const start = document.getElementById("recover-start");
  const [attemptId, recoveryToken] = location.hash.slice(1).split(".");
  // Read once: the token leaves the address bar and the history, as the approve page's does.
  if (location.hash) history.replaceState(null, "", location.pathname);
  const base = "/v1/client/recoveries/" + encodeURIComponent(attemptId ?? "");
  const mark = (id, state) => { document.getElementById(id).dataset.state = state; };
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

  if (!attemptId || !recoveryToken) {
    Passkeys.show(status, "error", "This page needs the whole recovery link. Open the link you were given again.");
    start.remove();
    return;
  }

  // Identity verification, then the replacement registration data: asked for again while the run is undecided.
  async function registrationData() {
    try {
      const run = await Passkeys.post(
        "/biometric-passkey/mobile/recovery/" + encodeURIComponent(attemptId) + "/idv/start", {}, recoveryToken);
      document.getElementById("identity-run").textContent = run.workflowRunId;
    } catch (error) {
      if (error.code !== "IDV_ALREADY_STARTED") throw error;
    }
    Passkeys.show(status, "info", "Verifying your identity… This page goes on by itself once it is decided.");
    for (;;) {
      try {
        return await Passkeys.post(base + "/registration", { recoveryToken });
      } catch (error) {
        if (error.code !== "RECOVERY_IDV_NOT_COMPLETED") throw error;
        await sleep(1500);
      }
    }
  }

  start.addEventListener("click", async () => {
    start.disabled = true;
    try {
      mark("step-identity", "active");
      const data = await registrationData();
      mark("step-identity", "done");
      mark("step-passkey", "active");
      Passkeys.show(status, "info", "Follow your browser's prompt to create a passkey on this device…");
      const credential = await Passkeys.create(data.publicKey);
      const registered = await Passkeys.post(base + "/complete", { credential, continuationToken: data.continuationToken });
      mark("step-passkey", "done");
      const finalized = await Passkeys.post("/recover/finalize",
        { recoveryAttemptId: attemptId, continuationToken: data.continuationToken });
      mark("step-done", "done");
      document.getElementById("new-passkey").textContent = registered.name;
      // Said in words, with the old passkeys' names.
      const names = (finalized.revokedNames ?? []).map((name) => "“" + name + "”");
      document.getElementById("revoked-text").textContent = names.length === 0
        ? "No old passkey was removed."
        : names.length === 1
          ? "Your old passkey " + names[0] + " was removed: it can no longer sign in."
          : "Your " + names.length + " old passkeys were removed (" + names.join(", ") + "): they can no longer sign in.";
      if (finalized.signedIn) {
        const next = document.getElementById("recovered-next");
        next.replaceChildren();
        const account = document.createElement("a");
        account.className = "button";
        account.href = "/account";
        account.textContent = "Go to your account";
        next.append(account);
      }
      document.getElementById("recovered").hidden = false;
      start.remove();
      Passkeys.show(status, "ok", finalized.signedIn
        ? "Your account is recovered. You are signed in with your new passkey."
        : "Your account is recovered.");
    } catch (error) {
      Passkeys.showFailure(status, error);
      start.disabled = false;
    }
  });
})();
