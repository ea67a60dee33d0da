module github.com/coerce-go/coerce/cmd/coerce

go 1.25.0

require (
	github.com/coerce-go/coerce v0.1.0
	github.com/modelcontextprotocol/go-sdk v1.8.0
)
