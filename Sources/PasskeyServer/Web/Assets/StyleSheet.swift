extension WebAssets {
    /// One style sheet for every page: readable type, AA contrast, a visible focus ring, one column on phones.
    static let styleSheet = #"""
        :root {
          --ink: #1b1f24; --muted: #4a5361; --line: #d0d5dc; --paper: #ffffff; --wash: #f4f6f8;
          --accent: #0b5cad; --accent-ink: #ffffff; --danger: #a4161a; --ok: #1e6b35; --focus: #b45309;
          font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink);
          background: var(--wash); line-height: 1.5;
        }
        * { box-sizing: border-box; }
        body { margin: 0; }
        a { color: var(--accent); }
        .skip { position: absolute; left: -9999px; }
        .skip:focus { left: 1rem; top: 1rem; background: var(--paper); padding: .5rem; z-index: 2; }
        .sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
        header.top { display: flex; flex-wrap: wrap; gap: .5rem 1.5rem; align-items: center; justify-content: space-between;
          padding: .75rem 1.25rem; background: var(--paper); border-bottom: 1px solid var(--line); }
        header.top .brand { font-weight: 700; font-size: 1.15rem; color: var(--ink); text-decoration: none; }
        header.top nav { display: flex; flex-wrap: wrap; gap: 1rem; align-items: center; }
        main { max-width: 56rem; margin: 0 auto; padding: 1.5rem 1.25rem 3rem; }
        main.wide { max-width: 72rem; }
        h1 { font-size: 1.6rem; margin: .25rem 0 1rem; }
        h1, h2, h3, header.top nav span { overflow-wrap: anywhere; }
        header.top nav { min-width: 0; }
        h2 { font-size: 1.2rem; margin: 0 0 .75rem; }
        .lead { color: var(--muted); margin-top: -.5rem; }
        .cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(17rem, 1fr)); gap: 1rem; }
        .card { background: var(--paper); border: 1px solid var(--line); border-radius: .5rem; padding: 1.25rem; }
        label { display: block; font-weight: 600; margin: .5rem 0 .25rem; }
        .hint { color: var(--muted); font-size: .9rem; margin: .25rem 0 0; }
        input[type=text], input[type=search], input[type=password] { width: 100%; font: inherit; padding: .55rem .65rem;
          border: 1px solid #8a94a3; border-radius: .375rem; background: var(--paper); color: var(--ink); }
        button, .button { display: inline-block; font: inherit; font-weight: 600; padding: .55rem 1rem; margin-top: .75rem;
          border-radius: .375rem; border: 1px solid var(--accent); background: var(--accent); color: var(--accent-ink);
          cursor: pointer; text-decoration: none; }
        button.secondary, .button.secondary { background: var(--paper); color: var(--accent); }
        button.danger { background: var(--danger); border-color: var(--danger); }
        button.link { background: none; border: none; color: var(--accent); padding: 0; margin: 0; text-decoration: underline; }
        button:disabled { opacity: .6; cursor: progress; }
        :focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
        .status { min-height: 1.5rem; margin: 1rem 0; padding: .75rem 1rem; border-radius: .375rem; }
        .status:empty { min-height: 0; margin: 0; padding: 0; }
        .status.ok { background: #e5f4ea; color: var(--ok); border: 1px solid #9fd0ad; }
        .status.error { background: #fbe9ea; color: var(--danger); border: 1px solid #eba9ab; }
        .status.info { background: #e8f0fa; color: #0a3d73; border: 1px solid #a9c4e6; }
        .status code { font-size: .85em; }
        ul.passkeys { list-style: none; padding: 0; margin: 0; display: grid; gap: 1rem; }
        .passkey h3 { margin: 0; font-size: 1.05rem; }
        .badge { display: inline-block; font-size: .8rem; font-weight: 600; padding: .1rem .5rem; border-radius: 1rem;
          border: 1px solid var(--line); background: var(--wash); color: var(--muted); margin-left: .5rem; }
        dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; margin: .75rem 0; }
        dl.facts dt { color: var(--muted); }
        dl.facts dd { margin: 0; overflow-wrap: anywhere; }
        .row { display: flex; flex-wrap: wrap; gap: .5rem; align-items: flex-end; }
        .row > .grow { flex: 1 1 12rem; }
        .row button, .row .button { margin-top: 0; }
        table { width: 100%; border-collapse: collapse; background: var(--paper); }
        th, td { text-align: left; padding: .5rem .6rem; border-bottom: 1px solid var(--line); vertical-align: top;
          overflow-wrap: break-word; }
        td.mono { overflow-wrap: anywhere; min-width: 8rem; }
        th { background: var(--wash); font-size: .9rem; white-space: nowrap; }
        td button { margin-top: 0; white-space: nowrap; }
        .table-scroll { overflow-x: auto; border: 1px solid var(--line); border-radius: .5rem; position: relative; }
        .pager { display: flex; gap: 1rem; margin: 1rem 0; }
        .spaced { margin-top: 1rem; }
        .mono { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: .85rem; }
        pre.transaction { white-space: pre-wrap; overflow-wrap: anywhere; font: inherit; font-weight: 600; margin: .75rem 0;
          padding: .75rem 1rem; background: var(--wash); border-left: 4px solid var(--accent); }
        #step-up-signed { white-space: pre-wrap; }
        footer { text-align: center; color: var(--muted); font-size: .85rem; padding: 2rem 1rem; }
        @media (max-width: 40rem) {
          main { padding: 1rem .75rem 2rem; }
          h1 { font-size: 1.35rem; }
          dl.facts { grid-template-columns: 1fr; }
          dl.facts dd { margin-bottom: .4rem; }
        }
        """#
}
