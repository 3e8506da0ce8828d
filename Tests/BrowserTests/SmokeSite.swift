import Hummingbird
import HummingbirdTesting
import Testing

/// A one-page site for exercising the driver: its form creates a passkey with `navigator.credentials.create` and
/// signs in with it with `navigator.credentials.get`, writing what happened into `#status`; its Delete button
/// asks `confirm()`. The query string picks `attestation`, `residentKey` and `userVerification`. The page also
/// sets an HttpOnly, SameSite=Strict cookie.
enum SmokeSite {
    /// Serves the site on `http://localhost:<port>/` (an address, not 127.0.0.1: WebAuthn needs a domain) while
    /// `body` runs.
    static func withServer(_ body: @Sendable (_ address: String) async throws -> Void) async throws {
        let router = Router()
        router.get("/") { _, _ in
            Response(
                status: .ok,
                headers: [
                    .contentType: "text/html; charset=utf-8", .setCookie: "smoke=1; Path=/; HttpOnly; SameSite=Strict",
                ],
                body: ResponseBody(byteBuffer: ByteBuffer(string: page))
            )
        }
        router.get("/favicon.ico") { _, _ in Response(status: .noContent) }
        try await Application(router: router).test(.live) { client in
            try await body("http://localhost:\(try #require(client.port))/")
        }
    }

    static let page = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Browser driver smoke test</title>
        <style>
          body { font: 16px system-ui, sans-serif; margin: 1.5rem; max-width: 40rem; }
          input, button { font: inherit; padding: .5rem; margin: .25rem 0; }
          #status { overflow-wrap: anywhere; }
        </style>
        </head>
        <body>
        <h1>Browser driver smoke test</h1>
        <form id="register-form">
          <label>User name <input id="name" autocomplete="username webauthn"></label>
          <button id="register" type="submit">Create a passkey and sign in</button>
        </form>
        <p id="status" role="status">Ready.</p>
        <button id="delete" type="button">Delete</button>
        <p id="deleted"></p>
        <script>
        const query = new URLSearchParams(location.search);
        const show = (id, text) => { document.getElementById(id).textContent = text; };
        const random = (length) => {
          const bytes = crypto.getRandomValues(new Uint8Array(length));
          return btoa(String.fromCharCode(...bytes)).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
        };
        document.getElementById('register-form').addEventListener('submit', async (event) => {
          event.preventDefault();
          const name = document.getElementById('name').value;
          const userVerification = query.get('userVerification') ?? 'required';
          try {
            show('status', 'Creating a passkey…');
            window.userID = random(16);
            const created = await navigator.credentials.create({publicKey: PublicKeyCredential.parseCreationOptionsFromJSON({
              rp: {id: 'localhost', name: 'Smoke test'},
              user: {id: window.userID, name, displayName: name},
              challenge: random(32),
              pubKeyCredParams: [{type: 'public-key', alg: -7}],
              authenticatorSelection: {residentKey: query.get('residentKey') ?? 'required', userVerification},
              attestation: query.get('attestation') ?? 'none',
            })});
            window.registration = created.toJSON();
            show('status', 'Signing in…');
            const request = {challenge: random(32), rpId: 'localhost', userVerification};
            if (query.get('residentKey') === 'discouraged') request.allowCredentials = [{type: 'public-key', id: created.id}];
            const asserted = await navigator.credentials.get({publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(request)});
            window.authentication = asserted.toJSON();
            show('status', asserted.id === created.id ? `Signed in as ${name} with ${asserted.id}` : 'Signed in with another key');
          } catch (error) {
            show('status', `Failed: ${error.name}: ${error.message}`);
          }
        });
        document.getElementById('delete').addEventListener('click', () => {
          show('deleted', confirm('Delete the passkey?') ? 'Deleted.' : 'Kept.');
        });
        </script>
        </body>
        </html>
        """
}
