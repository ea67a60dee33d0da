module github.com/coerce-go/coerce/internal/doccheck

go 1.26.6

require (
	github.com/coerce-go/coerce v0.1.0
	github.com/coerce-go/coerce/anthropic v0.1.0
	github.com/coerce-go/coerce/eino v0.1.0
	github.com/coerce-go/coerce/fantasy v0.1.0
	github.com/coerce-go/coerce/genkit v0.1.0
	github.com/coerce-go/coerce/gosdk v0.1.0
	github.com/coerce-go/coerce/mcpgo v0.1.0
	github.com/coerce-go/coerce/openai v0.1.0
)
