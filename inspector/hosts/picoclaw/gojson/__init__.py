"""Go's encoding/json as PicoClaw's host decodes and encodes with it: JSON text read as Go reads
it (syntax), a small language of Go types (types) and PicoClaw's own structs in it (schemas),
json.Unmarshal (decode, with a fast path for values plain json.loads reads alike: fast_decode),
json.Marshal (encode, plain), and time.Time's JSON form (time)."""
