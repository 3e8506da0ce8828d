extension WebAssets {
    /// The browser half of every ceremony, shared by the pages: the server's options JSON in, the Level 3
    /// response JSON out (with a fallback where the browser lacks the JSON helpers), and one message for every
    /// outcome.
    static let ceremonyScript = #"""
        "use strict";
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

          // Sign-in: options, get() (modal, or conditional for autofill), then complete, which gives the result token.
          async function authenticate(session, { mediation, signal } = {}) {
            const base = "/v1/client/authentications/" + encodeURIComponent(session.biometricPasskeySessionId);
            const { publicKey } = await post(base + "/options", {}, session.clientToken);
            let credential;
            try {
              credential = await navigator.credentials.get({ publicKey: requestOptions(publicKey), mediation, signal });
            } catch (error) { throw browserFailure(error, "get"); }
            return post(base + "/complete", { credential: responseJSON(credential) }, session.clientToken);
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

          // What to tell the user, for the browser's outcomes and every server error code.
          const messages = {
            // The browser's outcomes.
            CANCELLED: "Passkey creation was cancelled or timed out. Nothing was saved; try again when ready.",
            CANCELLED_OR_NONE: "Sign-in was cancelled, or this device has no passkey for this site. Try again, or sign in on the device that has your passkey.",
            PASSKEY_ALREADY_EXISTS: "This device already has a passkey for this account. Sign in with it instead.",
            SECURITY_ERROR: "This page's address cannot use passkeys for this site (its origin does not match the server's relying party).",
            NOT_SUPPORTED: "This browser or authenticator cannot create a passkey with the algorithms this server accepts.",
            NETWORK_ERROR: "The server could not be reached. Check your connection and try again.",
            // Every code the server sends.
            INVALID_REQUEST: "The request was not valid. Check what you entered and try again.",
            CHALLENGE_MISMATCH: "The passkey answered another request than this one. Start again.",
            ORIGIN_NOT_ALLOWED: "This page's address is not one the server accepts for passkeys.",
            RP_ID_MISMATCH: "The passkey belongs to another site.",
            CEREMONY_TYPE_MISMATCH: "The browser sent the wrong kind of passkey response. Start again.",
            USER_PRESENCE_REQUIRED: "The passkey did not confirm you were present. Try again and touch or confirm when asked.",
            USER_VERIFICATION_REQUIRED: "This site needs you to unlock the passkey (PIN, fingerprint or face). Try again and confirm it's you.",
            ATTESTATION_FORMAT_NOT_ALLOWED: "This site does not accept passkeys from this kind of authenticator.",
            ATTESTATION_INVALID: "The authenticator's proof of origin did not verify, so the passkey was not saved. Try another authenticator.",
            ALGORITHM_NOT_ALLOWED: "The authenticator used a key type this site does not accept. Try another authenticator.",
            SYNCED_CREDENTIALS_NOT_ALLOWED: "This site accepts only device-bound passkeys, not synced ones. Use a security key or a device-bound passkey.",
            ASSERTION_INVALID: "The passkey's signature did not verify. Try again; if it keeps failing, delete this passkey and add a new one.",
            CREDENTIAL_CLONE_SUSPECTED: "This passkey's counter went backwards, which can mean it was copied. It was refused; contact support.",
            CREDENTIAL_NAME_INVALID: "A passkey name is 1 to 64 characters, without control characters.",
            CREDENTIAL_NAME_HTML: "A passkey name cannot contain < or >.",
            SIGN_IN_REQUIRED: "Your session ended. Sign in again.",
            UNAUTHENTICATED: "This request is no longer authorised. Reload the page and start again.",
            CSRF_TOKEN_INVALID: "This page is out of date. Reload it and try again.",
            INVALID_RESULT_TOKEN: "The sign-in result did not match. Start again.",
            CREDENTIAL_INACTIVE: "The passkey you chose was deleted from your account and can no longer sign in. Use another passkey, or remove this one from your device.",
            STEP_UP_CREDENTIAL_USER_MISMATCH: "The passkey you chose belongs to another account.",
            NOT_FOUND: "There is no account with that user name. Check the spelling, or sign up.",
            CREDENTIAL_NOT_FOUND: "The server does not know the passkey you chose: it was deleted, or belongs to another account. Use another passkey.",
            METHOD_NOT_ALLOWED: "The page sent a request the server does not accept. Reload the page.",
            USER_NAME_TAKEN: "That user name is taken. Sign in instead, or choose another name.",
            REGISTRATION_ATTEMPT_CONFLICT: "This sign-up was already finished or cancelled. Start again.",
            CHALLENGE_CONSUMED: "This request was already used. Start again.",
            CREDENTIAL_ALREADY_REGISTERED: "That passkey is already registered.",
            MAX_CREDENTIALS_REACHED: "This account has as many passkeys as allowed. Delete one on the account page first.",
            CREDENTIAL_NAME_DUPLICATE: "Another of your passkeys already has that name. Choose another.",
            NO_ACTIVE_CREDENTIALS: "This account has no passkey any more. Sign up again to create one.",
            RESULT_ALREADY_REDEEMED: "This sign-in was already used. Start again.",
            AUTHENTICATION_NOT_COMPLETED: "The sign-in was not completed. Start again.",
            INVALID_OR_EXPIRED_SESSION: "This sign-in took too long and expired. Start again.",
            REGISTRATION_ATTEMPT_EXPIRED: "This sign-up took too long and expired. Start again.",
            RESERVATION_EXPIRED: "The new passkey was not confirmed in time and was released. Start again.",
            CHALLENGE_EXPIRED: "The request expired before the passkey answered. Start again.",
            PAYLOAD_TOO_LARGE: "The passkey's response was too large for this server.",
            RATE_LIMITED: "Too many attempts. Wait a minute, then try again.",
            INTERNAL_ERROR: "Something went wrong on the server. Try again; if it keeps happening, contact support.",
            SERVICE_UNAVAILABLE: "The service is unavailable right now. Try again shortly.",
          };
          function describe(error) {
            const code = error?.code ?? "BROWSER_ERROR";
            const text = messages[code] || error?.message || "Something went wrong.";
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

          return { post, register, authenticate, show, showFailure, describe, Failure };
        })();
        """#
}
