"""PicoClaw: JSON-RPC process hooks, read exactly as PicoClaw's Go host reads them."""

NAME = "picoclaw"  # what its config and every journal record of it say (Record.host)
LABEL = "PicoClaw"  # how a person names it
