module github.com/coerce-go/coerce/examples/workflow

go 1.24

require (
	github.com/coerce-go/coerce v0.1.0
	github.com/google/go-cmp v0.7.0
)
