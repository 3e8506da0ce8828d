extension PageTemplates {
    /// The console's navigation, shared by its pages.
    static let consoleNav = #"""
        <a href="/console">Users</a>
        <a href="/console/audit">Audit log</a>
        <a href="/console/sessions">Break-glass sessions</a>
        <a href="/console/webhooks">Webhooks</a>
        <span>Operator <strong>{{{operatorName}}}</strong></span>
        <form method="post" action="/console/sign-out"><input type="hidden" name="csrfToken" value="{{{csrfToken}}}"><button type="submit" class="link" id="console-sign-out">Sign out</button></form>
        """#

    /// `/console` before sign-in: an operator signs in with their passkey, or presents a backend API key.
    static let consoleSignIn = #"""
        {{<layout}}
        {{$title}}Operator console · swift-passkeys{{/title}}
        {{$scripts}}{{#passkeys}}<script src="/assets/passkeys.js" defer></script><script src="/assets/console.js" defer></script>{{/passkeys}}{{/scripts}}
        {{$main}}
        <h1>Operator console</h1>
        <p class="lead">The console session lasts an hour at most, apart from any account you are signed in to.</p>
        <p id="status" class="status" role="status" aria-live="polite"></p>
        {{#problem}}<p class="status error" role="alert">{{{problem}}}</p>{{/problem}}
        {{#passkeys}}
        <section class="card spaced" aria-labelledby="passkey-heading">
          <h2 id="passkey-heading">With your passkey</h2>
          <p>For operators named in the server's configuration.</p>
          <button type="button" id="console-passkey">Sign in with a passkey</button>
        </section>
        {{/passkeys}}
        <form class="card spaced" method="post" action="/console/sign-in">
          <h2>With an API key</h2>
          <p class="hint">A break-glass: one of this server's backend API keys, checked and not kept.</p>
          <input type="hidden" name="csrfToken" value="{{{csrfToken}}}">
          <label for="api-key">API key</label>
          <input id="api-key" name="apiKey" type="password" autocomplete="off" required>
          <button type="submit">Sign in</button>
        </form>
        {{/main}}
        {{/layout}}
        """#

    /// `/console`: users, with search and paging.
    static let consoleUsers = #"""
        {{<layout}}
        {{$title}}Users · operator console{{/title}}
        {{$nav}}{{>console-nav}}{{/nav}}
        {{$mainClass}}wide{{/mainClass}}
        {{$main}}
        <h1>Users</h1>
        <form class="row" method="get" action="/console" role="search">
          <div class="grow">
            <label for="query">Search by user id, name or display name</label>
            <input id="query" name="q" type="search" value="{{{query}}}" maxlength="128">
          </div>
          <button type="submit">Search</button>
          {{#query}}<a class="button secondary" href="/console">Clear</a>{{/query}}
        </form>
        {{#problem}}<p class="status error" role="alert">{{{problem}}}</p>{{/problem}}
        <div class="table-scroll spaced">
        <table>
          <caption class="sr-only">Users</caption>
          <thead><tr><th scope="col">User</th><th scope="col">Display name</th><th scope="col">User id</th><th scope="col">Passkeys</th><th scope="col">Created</th></tr></thead>
          <tbody>
          {{#users}}
            <tr><td><a href="/console/users/{{{userID}}}">{{{userName}}}</a></td><td>{{{displayName}}}</td><td class="mono">{{{userID}}}</td><td>{{{activeCredentials}}}</td><td>{{{created}}}</td></tr>
          {{/users}}
          {{^users}}<tr><td colspan="5">No users{{#query}} match “{{{query}}}”{{/query}}.</td></tr>{{/users}}
          </tbody>
        </table>
        </div>
        <nav class="pager" aria-label="Pages">{{#firstURL}}<a href="{{{firstURL}}}">First page</a>{{/firstURL}}{{#nextURL}}<a href="{{{nextURL}}}" rel="next">Next page</a>{{/nextURL}}</nav>
        {{/main}}
        {{/layout}}
        """#

    /// `/console/users/{userId}`: one user's passkeys, with revoke.
    static let consoleUser = #"""
        {{<layout}}
        {{$title}}{{{userName}}} · operator console{{/title}}
        {{$scripts}}{{#canEnrol}}<script src="/assets/passkeys.js" defer></script><script src="/assets/console.js" defer></script>{{/canEnrol}}{{/scripts}}
        {{$nav}}{{>console-nav}}{{/nav}}
        {{$mainClass}}wide{{/mainClass}}
        {{$main}}
        <h1>{{{userName}}}</h1>
        <dl class="facts">
          <dt>Display name</dt><dd>{{{displayName}}}</dd>
          <dt>User id</dt><dd class="mono">{{{userID}}}</dd>
          <dt>Created</dt><dd>{{{created}}}</dd>
        </dl>
        <p><a href="/console/audit?user={{{userID}}}">This user's audit events</a></p>
        {{^recoveryUnavailable}}<form method="post" action="/console/users/{{{userID}}}/recovery" class="spaced"><input type="hidden" name="csrfToken" value="{{{csrfToken}}}"><button type="submit" id="start-recovery">Start recovery</button> <span class="hint">A one-time link for the person to get back in on a new device.</span></form>{{/recoveryUnavailable}}
        {{#recoveryUnavailable}}<p class="status info" id="recovery-unavailable">{{{recoveryUnavailable}}}</p>{{/recoveryUnavailable}}
        {{#notice}}<p class="status ok" role="status">{{{notice}}}</p>{{/notice}}
        {{#canEnrol}}
        <section class="card spaced" aria-labelledby="console-passkey-heading">
          <h2 id="console-passkey-heading">Console passkey</h2>
          <p>Only a passkey added here opens the console for this operator, and only with user verification.</p>
          <p id="status" class="status" role="status" aria-live="polite"></p>
          <button type="button" id="enrol-console-passkey" data-path="/console/users/{{{userID}}}/console-passkeys">Add a console passkey</button>
        </section>
        {{/canEnrol}}
        <h2>Passkeys</h2>
        <div class="table-scroll">
        <table class="stack">
          <thead><tr><th scope="col">Name</th><th scope="col">Kind</th><th scope="col">Authenticator</th><th scope="col">Attestation</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Credential id</th><th scope="col"><span class="sr-only">Action</span></th></tr></thead>
          <tbody>
          {{#credentials}}
            <tr><td data-label="Name">{{{name}}}{{#console}} <span class="hint console-passkey">(console)</span>{{/console}}</td><td data-label="Kind">{{{kind}}}</td><td data-label="Authenticator">{{{authenticator}}}</td><td data-label="Attestation">{{{attestation}}}</td><td data-label="Created">{{{created}}}</td><td data-label="Last used">{{{lastUsed}}}</td><td class="mono" data-label="Credential id">{{{credentialId}}}</td>
              <td class="action"><form method="post" action="/console/credentials/{{{credentialId}}}/revoke"><input type="hidden" name="csrfToken" value="{{{csrfToken}}}"><button type="submit" class="danger revoke" aria-label="Revoke {{{name}}}">Revoke</button></form></td></tr>
          {{/credentials}}
          {{^credentials}}<tr><td colspan="8">No active passkeys.</td></tr>{{/credentials}}
          </tbody>
        </table>
        </div>
        <h2>Sessions</h2>
        <div class="table-scroll">
        <table class="stack">
          <thead><tr><th scope="col">Where</th><th scope="col">Signed in</th><th scope="col">Ends</th><th scope="col">Client address</th><th scope="col">Passkey</th><th scope="col"><span class="sr-only">Action</span></th></tr></thead>
          <tbody>
          {{#sessions}}
            <tr><td data-label="Where">{{{kind}}}</td><td data-label="Signed in">{{{created}}}</td><td data-label="Ends">{{{expires}}}</td><td class="mono" data-label="Client address">{{{clientIP}}}</td><td data-label="Passkey">{{{passkey}}}</td>
              <td class="action"><form method="post" action="/console/users/{{{userID}}}/sessions/end"><input type="hidden" name="csrfToken" value="{{{csrfToken}}}"><input type="hidden" name="sessionId" value="{{{sessionId}}}"><button type="submit" class="danger end-session">Sign out</button></form></td></tr>
          {{/sessions}}
          {{^sessions}}<tr><td colspan="6">Not signed in anywhere.</td></tr>{{/sessions}}
          </tbody>
        </table>
        </div>
        <nav class="pager" aria-label="Pages of sessions">{{#newerSessionsURL}}<a href="{{{newerSessionsURL}}}">Newer sessions</a>{{/newerSessionsURL}}{{#olderSessionsURL}}<a href="{{{olderSessionsURL}}}" rel="next">Older sessions</a>{{/olderSessionsURL}}</nav>
        {{#hasSessions}}<form method="post" action="/console/users/{{{userID}}}/sessions/end" class="spaced"><input type="hidden" name="csrfToken" value="{{{csrfToken}}}"><button type="submit" class="danger" id="end-all-sessions">Sign out everywhere</button></form>{{/hasSessions}}
        {{/main}}
        {{/layout}}
        """#

    /// `/console/audit`: the audit log, newest first, optionally for one user.
    static let consoleAudit = #"""
        {{<layout}}
        {{$title}}Audit log · operator console{{/title}}
        {{$nav}}{{>console-nav}}{{/nav}}
        {{$mainClass}}wide{{/mainClass}}
        {{$main}}
        <h1>Audit log</h1>
        <form class="row" method="get" action="/console/audit" role="search">
          <div class="grow">
            <label for="user-filter">User id or user name</label>
            <input id="user-filter" name="user" type="search" value="{{{user}}}" maxlength="128">
          </div>
          <button type="submit">Filter</button>
          {{#user}}<a class="button secondary" href="/console/audit">All users</a>{{/user}}
        </form>
        {{#problem}}<p class="status error" role="alert">{{{problem}}}</p>{{/problem}}
        <div class="table-scroll spaced">
        <table class="audit">
          <thead><tr><th scope="col">#</th><th scope="col">Time (UTC)</th><th scope="col">Action</th><th scope="col">Actor</th><th scope="col">User id</th><th scope="col">Subject</th><th scope="col">Details</th></tr></thead>
          <tbody>
          {{#events}}
            <tr><td>{{{sequence}}}</td><td class="time">{{{time}}}</td><td>{{{action}}}</td><td class="ids">{{{actor}}}</td><td class="ids">{{#userID}}<a href="/console/users/{{{userID}}}">{{{userID}}}</a>{{/userID}}</td><td class="ids">{{{subject}}}</td><td class="details">{{#hasDetails}}<details><summary>{{{detailCount}}} details</summary><dl>{{#details}}<dt>{{{key}}}</dt><dd>{{{value}}}</dd>{{/details}}</dl></details>{{/hasDetails}}</td></tr>
          {{/events}}
          {{^events}}<tr><td colspan="7">No events.</td></tr>{{/events}}
          </tbody>
        </table>
        </div>
        <nav class="pager" aria-label="Pages">{{#newestURL}}<a href="{{{newestURL}}}">Newest</a>{{/newestURL}}{{#olderURL}}<a href="{{{olderURL}}}" rel="next">Older events</a>{{/olderURL}}</nav>
        {{/main}}
        {{/layout}}
        """#

    /// `/console/sessions`: the console's sessions signed in with an API key (break-glass), with sign-out.
    static let consoleSessions = #"""
        {{<layout}}
        {{$title}}Break-glass sessions · operator console{{/title}}
        {{$nav}}{{>console-nav}}{{/nav}}
        {{$mainClass}}wide{{/mainClass}}
        {{$main}}
        <h1>Break-glass sessions</h1>
        <p class="lead">Console sessions signed in with an API key. A session whose key is no longer configured is refused already.</p>
        {{#notice}}<p class="status ok" role="status">{{{notice}}}</p>{{/notice}}
        <div class="table-scroll spaced">
        <table>
          <thead><tr><th scope="col">Session</th><th scope="col">API key</th><th scope="col">Signed in</th><th scope="col">Ends</th><th scope="col">Client address</th><th scope="col"><span class="sr-only">Action</span></th></tr></thead>
          <tbody>
          {{#sessions}}
            <tr><td class="mono">{{{sessionId}}}</td><td>{{{operator}}}</td><td>{{{created}}}</td><td>{{{expires}}}</td><td class="mono">{{{clientIP}}}</td>
              <td><form method="post" action="/console/sessions/{{{sessionId}}}/end"><input type="hidden" name="csrfToken" value="{{{csrfToken}}}"><button type="submit" class="danger end-session">Sign out</button></form></td></tr>
          {{/sessions}}
          {{^sessions}}<tr><td colspan="6">No break-glass sessions.</td></tr>{{/sessions}}
          </tbody>
        </table>
        </div>
        <nav class="pager" aria-label="Pages">{{#newerURL}}<a href="{{{newerURL}}}">Newer sessions</a>{{/newerURL}}{{#olderURL}}<a href="{{{olderURL}}}" rel="next">Older sessions</a>{{/olderURL}}</nav>
        {{/main}}
        {{/layout}}
        """#
}
