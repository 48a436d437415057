from ._identity import console_main

raise SystemExit(console_main())
