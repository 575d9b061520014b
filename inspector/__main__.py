from inspector.cli.main import main

raise SystemExit(main())
