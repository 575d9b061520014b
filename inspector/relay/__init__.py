"""The agent side of the bridge: `hook-inspector relay`, run by an agent as its hook. Standard
library only and never the engine, so it starts fast; `wire` is what both sides speak."""
