"use strict";
// The demo's "Sign in with your phone": the server hands this browser's sign-in off to a phone and answers with a
// QR code, a number and a poll token. The page shows them, follows the handoff's status — server-sent events read
// with fetch (EventSource cannot send the poll token), else polling every 2 s — and once the phone approved,
// redeems the sign-in with the poll token, which signs this browser in. "Cancel" calls the handoff off with the same
// token: the phone can then no longer approve it.
(() => {
  const button = document.getElementById("sign-in-phone");
  const panel = document.getElementById("phone");
  if (!button || !panel) return;
  const status = document.getElementById("phone-status");
  const again = document.getElementById("phone-again");
  const qr = document.getElementById("phone-qr");
  const code = document.getElementById("phone-code");
  const link = document.getElementById("phone-link");
  const shown = document.getElementById("phone-handoff");
  const copy = document.getElementById("phone-copy");
  const cancel = document.getElementById("phone-cancel");
  let watching = null;
  // The handoff shown, until it ends.
  let current = null;

  const texts = {
    pending: ["info", "Scan the QR code with the phone that has your passkey, or open the link on it."],
    claimed: ["info", "Check the number on your phone: it must be the one shown here."],
    confirmed: ["info", "Number confirmed. Approve with your passkey on the phone…"],
    approved: ["ok", "Approved on your phone. Signing you in…"],
    rejected: ["error", "Refused on the phone: nothing was signed in. Get a new code to try again."],
    expired: ["error", "This code has expired. Get a new code to try again."],
    cancelled: ["info", "Cancelled: nothing was signed in, and the phone can no longer approve it. Get a new code to try again."],
  };
  const isFinal = (name) => ["approved", "rejected", "expired", "cancelled"].includes(name);

  function showCode(handoff) {
    // The SVG is made by the server from the link, never from anyone's text: shown as an image.
    qr.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(handoff.qrCodeSVG);
    code.textContent = handoff.verificationCode;
    link.value = handoff.deepLink;
    if (copy) copy.textContent = "Copy the link";
  }

  // The handoff is over: a code that can no longer be used is not left on the screen.
  function retired() {
    current = null;
    shown.hidden = true;
    again.hidden = false;
  }

  async function approved(handoff) {
    try {
      const { redirect } = await Passkeys.post("/demo/sign-in/finish",
        { biometricPasskeySessionId: handoff.biometricPasskeySessionId, resultToken: handoff.pollToken });
      window.location.assign(redirect ?? "/account");
    } catch (error) {
      Passkeys.showFailure(status, error);
      retired();
    }
  }

  // Shows a status; true when it is final (and acts on it).
  function update(handoff, next) {
    const [kind, text] = texts[next.status] ?? ["info", "Waiting for your phone…"];
    // Refused by the server rather than the person (the passkey's account is not a demo account): says why.
    if (next.code) Passkeys.showFailure(status, new Passkeys.Failure(next.code, ""));
    else Passkeys.show(status, kind, text);
    if (!isFinal(next.status)) return false;
    if (next.status === "approved") approved(handoff); else retired();
    return true;
  }

  function authorization(handoff) {
    return { Authorization: "Bearer " + handoff.pollToken, Accept: "application/json" };
  }
  const base = (handoff) => "/v1/client/cross-platform/" + encodeURIComponent(handoff.crossPlatformSessionId);

  // Reads the event stream; true when it ended at a final status, false when it failed or ended early.
  async function stream(handoff, signal) {
    try {
      const headers = { ...authorization(handoff), Accept: "text/event-stream" };
      const response = await fetch(base(handoff) + "/events", { headers, signal, cache: "no-store" });
      if (!response.ok || !response.body) return false;
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return false;
        buffer += value.replace(/\r\n?/g, "\n");
        let end;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let event = "message";
          let data = "";
          for (const line of block.split("\n")) {
            if (line.startsWith("event:")) event = line.slice(6).trim();
            else if (line.startsWith("data:")) data += line.slice(5).trim();
          }
          if (event === "status" && data && update(handoff, JSON.parse(data))) return true;
        }
      }
    } catch (_) {
      return false;
    }
  }

  // Polls the status every 2 s until it is final; a refusal (a poll token no longer valid) ends it with the server's
  // message.
  async function poll(handoff, signal) {
    while (!signal.aborted) {
      try {
        const response = await fetch(base(handoff) + "/status", { headers: authorization(handoff), signal, cache: "no-store" });
        const json = await response.json().catch(() => ({}));
        if (!response.ok) {
          const error = json.error ?? {};
          // A refusal ends the watch; a server error or a rate limit is waited out.
          if (response.status < 500 && response.status !== 429) {
            Passkeys.showFailure(status, new Passkeys.Failure(error.code ?? "HTTP_" + response.status, error.message ?? ""));
            retired();
            return;
          }
        } else if (update(handoff, json)) {
          return;
        }
      } catch (_) {
        if (signal.aborted) return;
      }
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  }

  async function start() {
    watching?.abort();
    const controller = new AbortController();
    watching = controller;
    button.disabled = true;
    again.hidden = true;
    const userName = document.getElementById("sign-in-name")?.value.trim();
    let handoff;
    try {
      handoff = await Passkeys.post("/demo/sign-in/phone", userName ? { userName } : {});
    } catch (error) {
      // Nothing was handed off (no such user name, say): only the reason is shown.
      shown.hidden = true;
      panel.hidden = false;
      Passkeys.showFailure(status, error);
      return;
    } finally {
      button.disabled = false;
    }
    // Pressed again meanwhile: that newer code is the one shown and followed.
    if (watching !== controller) return;
    current = handoff;
    showCode(handoff);
    shown.hidden = false;
    panel.hidden = false;
    update(handoff, { status: "pending" });
    panel.scrollIntoView({ block: "nearest" });
    if (await stream(handoff, controller.signal)) return;
    if (!controller.signal.aborted) await poll(handoff, controller.signal);
  }

  copy?.addEventListener("click", async () => {
    link.select();
    try {
      await navigator.clipboard.writeText(link.value);
      copy.textContent = "Copied";
    } catch (_) {
      copy.textContent = "Selected: copy it with your keyboard";
    }
  });
  link.addEventListener("focus", () => link.select());

  cancel?.addEventListener("click", async () => {
    const handoff = current;
    if (!handoff) return;
    cancel.disabled = true;
    try {
      const next = await Passkeys.post(base(handoff) + "/cancel", {}, handoff.pollToken);
      if (current !== handoff) return;
      watching?.abort();
      update(handoff, next);
    } catch (error) {
      // Approved or refused on the phone meanwhile: the status that follows says so.
      Passkeys.showFailure(status, error);
    } finally {
      cancel.disabled = false;
    }
  });

  button.addEventListener("click", start);
  again.addEventListener("click", start);
})();
