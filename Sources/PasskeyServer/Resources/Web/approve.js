"use strict";
// The phone's side of "Sign in with your phone", in its browser: the handoff token comes in the address's fragment
// (never sent to the server in the URL). The page reads what the sign-in asks without claiming it, so a link preview
// or a prefetch that opens the link burns nothing; it claims the handoff only when the person acts — approves with
// the number the other screen shows, then signs with a passkey of this phone, or says "not me".
(() => {
  const status = document.getElementById("approve-status");
  const ask = document.getElementById("approve-ask");
  const form = document.getElementById("approve-form");
  const reject = document.getElementById("approve-reject");
  if (!status || !ask || !form || !reject) return;
  const token = location.hash.slice(1);
  // The token stays in this page only: it leaves the address bar and the history.
  if (location.hash) history.replaceState(null, "", location.pathname);
  // What the preview showed the person, and the claim once they acted.
  let asked = null;
  let handoff = null;

  function busy(on) { for (const button of ask.querySelectorAll("button")) button.disabled = on; }
  function done(kind, text, code) {
    ask.hidden = true;
    Passkeys.show(status, kind, text, code);
  }
  function failed(error) {
    ask.hidden = true;
    Passkeys.showFailure(status, error);
  }
  const base = () => "/v1/client/cross-platform/" + encodeURIComponent(handoff.crossPlatformSessionId);

  // What the sign-in asks, read without claiming it.
  async function preview() {
    if (!token) {
      done("error", "This page opens from the QR code or link on the other screen. Scan the code again.");
      return;
    }
    try {
      asked = await Passkeys.post("/v1/client/cross-platform/preview", { handoffToken: token });
    } catch (error) {
      failed(error);
      return;
    }
    if (asked.identityVerification === "required") {
      done("error", "This sign-in needs an identity check, which this page cannot do. Approve it in the app instead.");
      return;
    }
    if (asked.transaction) {
      document.getElementById("approve-transaction").textContent = asked.transaction.text;
      document.getElementById("approve-transaction-box").hidden = false;
    }
    Passkeys.show(status, "info", "Check the number on the other screen and type it here.");
    ask.hidden = false;
    document.getElementById("approve-code").focus();
  }

  // Claims the handoff, once, when the person first acts on it; false (with the reason shown) when it cannot be.
  async function claimed() {
    if (handoff) return true;
    try {
      handoff = await Passkeys.post("/v1/client/cross-platform/resume", { handoffToken: token });
      return true;
    } catch (error) {
      failed(error);
      return false;
    }
  }

  async function approve() {
    const verificationCode = form.elements.verificationCode.value.trim();
    if (!/^[0-9]{2}$/.test(verificationCode)) {
      Passkeys.show(status, "error", "Type the two digits the other screen shows.");
      return;
    }
    if (!(await claimed())) return;
    try {
      await Passkeys.post(base() + "/confirm", { verificationCode }, handoff.clientToken);
    } catch (error) {
      if (error.code === "HANDOFF_CODE_MISMATCH") {
        // The server's message says how many tries are left, or that this was the last (another try then
        // answers HANDOFF_REJECTED, which ends the page).
        Passkeys.show(status, "error", error.message, error.code);
        form.elements.verificationCode.select();
      } else {
        failed(error);
      }
      return;
    }
    Passkeys.show(status, "info", "Number confirmed. Follow your browser's prompt to use your passkey…");
    // The text signed must be the one the person read.
    const shown = asked.transaction?.text;
    try {
      await Passkeys.authenticate(
        { biometricPasskeySessionId: handoff.biometricPasskeySessionId, clientToken: handoff.clientToken },
        { confirm: async (transaction) => transaction.text === shown });
    } catch (error) {
      if (error.code === "CANCELLED_OR_NONE") {
        Passkeys.showFailure(status, error);
      } else {
        failed(error);
      }
      return;
    }
    done("ok", "Approved — the other device signs in. You can close this page.");
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    busy(true);
    try { await approve(); } finally { busy(false); }
  });

  reject.addEventListener("click", async () => {
    busy(true);
    try {
      if (!(await claimed())) return;
      await Passkeys.post(base() + "/reject", {}, handoff.clientToken);
      done("ok", "Refused. The other screen is told it was not you; nothing was signed in.");
    } catch (error) {
      failed(error);
    } finally { busy(false); }
  });

  preview();
})();
