extension PageTemplates {
    /// The frame of every page; pages fill its `title`, `nav`, `main` and `scripts` blocks.
    static let layout = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="csrf-token" content="{{{csrfToken}}}">
        <title>{{$title}}swift-passkeys{{/title}}</title>
        <link rel="icon" href="data:,">
        <link rel="stylesheet" href="/assets/passkeys.css">
        {{$scripts}}{{/scripts}}
        </head>
        <body>
        <a class="skip" href="#main">Skip to content</a>
        <header class="top">
          <a class="brand" href="/">swift-passkeys</a>
          <nav aria-label="Site">{{$nav}}{{/nav}}</nav>
        </header>
        <main id="main" class="{{$mainClass}}{{/mainClass}}">
        {{$main}}{{/main}}
        </main>
        <footer>{{{rpName}}} · relying party <span class="mono">{{{rpId}}}</span></footer>
        </body>
        </html>
        """#

    /// A short page with one message, for errors and refusals.
    static let message = #"""
        {{<layout}}
        {{$title}}{{{heading}}} · swift-passkeys{{/title}}
        {{$main}}
        <h1>{{{heading}}}</h1>
        <p class="status error" role="alert" data-error-code="{{{code}}}">{{{text}}}</p>
        <p><a class="button secondary" href="{{{backURL}}}">{{{backLabel}}}</a></p>
        {{/main}}
        {{/layout}}
        """#
}
