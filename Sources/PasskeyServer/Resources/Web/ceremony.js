const Passkeys = (() => {
  const csrfToken = document.querySelector('meta[name="csrf-token"]')?.content ?? "";

  class Failure extends Error {
    constructor(code, message, requestId) { super(message); this.code = code; this.requestId = requestId; }
  }

  // POST JSON: with the flow's client token to the client API, or with the CSRF token to the page's own server.
  async function post(path, body, clientToken) {
    const headers = { "Content-Type": "application/json", "Accept": "application/json" };
    if (clientToken) headers.Authorization = "Bearer " + clientToken; else headers["X-CSRF-Token"] = csrfToken;
    let response;
    try {
      response = await fetch(path, { method: "POST", headers, body: JSON.stringify(body ?? {}), credentials: "same-origin" });
    } catch (error) {
      throw new Failure("NETWORK_ERROR", "The server could not be reached. Check your connection and try again.");
    }
    const text = await response.text();
    let json = {};
    try { json = text ? JSON.parse(text) : {}; } catch (_) { json = {}; }
    if (!response.ok) {
      const error = json.error ?? {};
      throw new Failure(error.code ?? "HTTP_" + response.status, error.message ?? response.statusText, error.requestId);
    }
    return json;
  }

  // Unpadded base64url <-> ArrayBuffer, for browsers without the JSON helpers.
  function decode(text) {
    const base64 = text.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(text.length / 4) * 4, "=");
    return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)).buffer;
  }
  function encode(buffer) {
    let binary = "";
    for (const byte of new Uint8Array(buffer)) binary += String.fromCharCode(byte);
    return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }
  const withIDs = (list) => list?.map((item) => ({ ...item, id: decode(item.id) }));

  function creationOptions(json) {
    if (PublicKeyCredential.parseCreationOptionsFromJSON) return PublicKeyCredential.parseCreationOptionsFromJSON(json);
    return { ...json, challenge: decode(json.challenge), user: { ...json.user, id: decode(json.user.id) },
      excludeCredentials: withIDs(json.excludeCredentials) };
  }
  function requestOptions(json) {
    if (PublicKeyCredential.parseRequestOptionsFromJSON) return PublicKeyCredential.parseRequestOptionsFromJSON(json);
    return { ...json, challenge: decode(json.challenge), allowCredentials: withIDs(json.allowCredentials) };
  }
  function responseJSON(credential) {
    if (typeof credential.toJSON === "function") return credential.toJSON();
    const r = credential.response;
    const response = { clientDataJSON: encode(r.clientDataJSON) };
    if (r.attestationObject) {
      response.attestationObject = encode(r.attestationObject);
      response.transports = r.getTransports?.() ?? [];
    } else {
      response.authenticatorData = encode(r.authenticatorData);
      response.signature = encode(r.signature);
      if (r.userHandle) response.userHandle = encode(r.userHandle);
    }
    return { id: credential.id, rawId: encode(credential.rawId), type: credential.type, response,
      authenticatorAttachment: credential.authenticatorAttachment ?? undefined,
      clientExtensionResults: credential.getClientExtensionResults?.() ?? {} };
  }

  // Registration: options from the client API, create() in the browser, then complete.
  async function register(attempt) {
    const base = "/v1/client/registrations/" + encodeURIComponent(attempt.registrationAttemptId);
    const { publicKey } = await post(base + "/options", {}, attempt.clientToken);
    let credential;
    try {
      credential = await navigator.credentials.create({ publicKey: creationOptions(publicKey) });
    } catch (error) { throw browserFailure(error, "create"); }
    return post(base + "/complete", { credential: responseJSON(credential) }, attempt.clientToken);
  }

  // A passkey for creation options the server gave (a recovery's replacement): create() in the browser, as JSON.
  async function create(publicKey) {
    try {
      return responseJSON(await navigator.credentials.create({ publicKey: creationOptions(publicKey) }));
    } catch (error) { throw browserFailure(error, "create"); }
  }

  // A step-up's transaction: the challenge must be 32 random bytes followed by the SHA-256 of the text (NFC),
  // and the server's digest must be that too, before the user is shown the text and asked to confirm.
  async function checkTransaction(challenge, transaction) {
    const text = transaction.text.normalize("NFC");
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
    const bytes = new Uint8Array(decode(challenge));
    const same = (a, b) => a.length === b.length && a.every((value, index) => value === b[index]);
    if (bytes.length !== 64 || !same(bytes.slice(32), digest) || !same(new Uint8Array(decode(transaction.digest)), digest)) {
      throw new Failure("AUTH_CONTEXT_MISMATCH", "The challenge does not commit to the transaction shown, so nothing was signed.");
    }
  }

  // Sign-in: options, get() (modal, or conditional for autofill), then complete, which gives the result token.
  // With a transaction, `confirm(transaction)` shows it and resolves true to sign.
  async function authenticate(session, { mediation, signal, confirm } = {}) {
    const base = "/v1/client/authentications/" + encodeURIComponent(session.biometricPasskeySessionId);
    const { publicKey, transaction } = await post(base + "/options", {}, session.clientToken);
    if (transaction) {
      await checkTransaction(publicKey.challenge, transaction);
      if (!confirm || !(await confirm(transaction))) {
        throw new Failure("USER_CANCELLED", "The transaction was not confirmed, so nothing was signed.");
      }
    }
    let credential;
    try {
      credential = await navigator.credentials.get({ publicKey: requestOptions(publicKey), mediation, signal });
    } catch (error) { throw browserFailure(error, "get"); }
    return post(base + "/complete", { credential: responseJSON(credential) }, session.clientToken);
  }

  // WebAuthn signals: tell the browser's passkey provider which passkeys this site still accepts, and which
  // it deleted, so that it stops offering them. Feature-detected; a browser without them is not an error.
  const rpId = () => document.querySelector("footer .mono")?.textContent ?? location.hostname;
  async function signal(name, options) {
    try { if (typeof PublicKeyCredential[name] === "function") await PublicKeyCredential[name](options); }
    catch (_) { /* a signal is advice to the browser; its failure changes nothing here */ }
  }
  function signalUnknownCredential(credentialId) {
    return signal("signalUnknownCredential", { rpId: rpId(), credentialId });
  }
  function signalAllAcceptedCredentials(userId, allAcceptedCredentialIds) {
    return signal("signalAllAcceptedCredentials", { rpId: rpId(), userId, allAcceptedCredentialIds });
  }
  function signalCurrentUserDetails(userId, name, displayName) {
    return signal("signalCurrentUserDetails", { rpId: rpId(), userId, name, displayName });
  }

  function browserFailure(error, ceremony) {
    switch (error?.name) {
      case "AbortError": return new Failure("ABORTED", "The request was replaced by another one.");
      case "InvalidStateError":
        return ceremony === "create"
          ? new Failure("PASSKEY_ALREADY_EXISTS", "")
          : new Failure("BROWSER_ERROR", error.message);
      case "NotAllowedError": return new Failure(ceremony === "create" ? "CANCELLED" : "CANCELLED_OR_NONE", "");
      case "SecurityError": return new Failure("SECURITY_ERROR", error.message);
      case "NotSupportedError": return new Failure("NOT_SUPPORTED", error.message);
      default: return new Failure("BROWSER_ERROR", error?.message ?? String(error));
    }
  }

  function describe(error) {
    const code = error?.code ?? "BROWSER_ERROR";
    // A refused field: the server's own message says which field and what it accepts.
    const text = (code === "INVALID_REQUEST" && error?.message) || PasskeyMessages[code] || error?.message
      || "Something went wrong.";
    return { code, text, requestId: error?.requestId };
  }

  function show(element, kind, text, code) {
    element.className = "status " + kind;
    element.textContent = text;
    if (code) {
      const detail = document.createElement("code");
      detail.textContent = " (" + code + ")";
      element.append(detail);
    }
  }

  function showFailure(element, error) {
    const { code, text } = describe(error);
    show(element, "error", text, code);
  }

  return { post, register, create, authenticate, show, showFailure, describe, Failure,
    signalUnknownCredential, signalAllAcceptedCredentials, signalCurrentUserDetails };
})();
