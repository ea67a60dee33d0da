module github.com/coerce-go/coerce/genkit

go 1.25.5

require github.com/coerce-go/coerce v0.1.0
