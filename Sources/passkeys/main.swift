import PasskeysCommandLine

// The whole tool lives in PasskeysCommandLine, where tests can run it in-process.
await PasskeysTool.main()
