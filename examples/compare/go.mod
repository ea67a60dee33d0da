module github.com/coerce-go/coerce/examples/compare

go 1.24

require github.com/coerce-go/coerce v0.1.0

require github.com/goccy/go-json v0.12.0
