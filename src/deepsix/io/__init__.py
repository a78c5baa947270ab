"""Reading and writing games: notation, records, JSON documents and the wire format."""
