module github.com/coerce-go/coerce/internal/doccheck

go 1.26.6

// No requirement of the integrations: the workspace that runs the test
// provides them (the root go.work, or genkit/go.work for genkit's README).
require github.com/coerce-go/coerce v0.1.0
