extension PageTemplates {
    /// `/console/webhooks`: the configured endpoints.
    static let consoleWebhooks = #"""
        {{<layout}}
        {{$title}}Webhooks · operator console{{/title}}
        {{$nav}}{{>console-nav}}{{/nav}}
        {{$mainClass}}wide{{/mainClass}}
        {{$main}}
        <h1>Webhooks</h1>
        <p class="lead">The endpoints of the configuration (<code>webhooks.endpoints</code>) and the signed events they receive.</p>
        <div class="table-scroll spaced">
        <table>
          <thead><tr><th scope="col">Endpoint</th><th scope="col">URL</th><th scope="col">Events</th></tr></thead>
          <tbody>
          {{#endpoints}}
            <tr><td><a href="/console/webhooks/{{{name}}}">{{{name}}}</a></td><td class="mono">{{{url}}}</td><td>{{{events}}}</td></tr>
          {{/endpoints}}
          {{^endpoints}}<tr><td colspan="3">No webhook endpoints are configured.</td></tr>{{/endpoints}}
          </tbody>
        </table>
        </div>
        {{/main}}
        {{/layout}}
        """#

    /// `/console/webhooks/{endpoint}`: an endpoint's deliveries, newest first, each finished one with its resend button.
    static let consoleWebhookDeliveries = #"""
        {{<layout}}
        {{$title}}Webhook deliveries to {{{endpoint}}} · operator console{{/title}}
        {{$nav}}{{>console-nav}}{{/nav}}
        {{$mainClass}}wide{{/mainClass}}
        {{$main}}
        <h1>Deliveries to {{{endpoint}}}</h1>
        <p class="lead mono">{{{url}}}</p>
        {{#notice}}<p class="status ok" role="status">{{{notice}}}</p>{{/notice}}
        <div class="table-scroll spaced">
        <table>
          <thead><tr><th scope="col">Event</th><th scope="col">Message</th><th scope="col">Written</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Last answer</th><th scope="col">Next try</th><th scope="col"><span class="sr-only">Action</span></th></tr></thead>
          <tbody>
          {{#deliveries}}
            <tr class="delivery" data-status="{{{status}}}"><td>{{{type}}}</td><td class="mono">{{{messageId}}}</td><td>{{{created}}}</td><td>{{{status}}}</td><td>{{{attempts}}}</td><td>{{{lastAnswer}}}</td><td>{{{nextTry}}}</td>
              <td>{{#finished}}<form method="post" action="/console/webhooks/{{{endpoint}}}/deliveries/{{{id}}}/resend"><input type="hidden" name="csrfToken" value="{{{csrfToken}}}"><button type="submit" class="resend">Resend</button></form>{{/finished}}</td></tr>
          {{/deliveries}}
          {{^deliveries}}<tr><td colspan="8">No deliveries yet.</td></tr>{{/deliveries}}
          </tbody>
        </table>
        </div>
        <nav class="pager" aria-label="Pages">{{#newestURL}}<a href="{{{newestURL}}}">Newest deliveries</a>{{/newestURL}}{{#olderURL}}<a href="{{{olderURL}}}" rel="next">Older deliveries</a>{{/olderURL}}</nav>
        {{/main}}
        {{/layout}}
        """#
}
