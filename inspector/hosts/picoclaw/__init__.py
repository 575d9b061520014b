"""PicoClaw: JSON-RPC process hooks, read exactly as PicoClaw's Go host reads them."""
