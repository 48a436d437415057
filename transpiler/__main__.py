from ._console import console_main

raise SystemExit(console_main())
