module github.com/coerce-go/coerce/examples/compare

go 1.26.6

require github.com/coerce-go/coerce v0.1.0

require (
	charm.land/fantasy v0.41.2
	github.com/RealAlexandreAI/json-repair v0.0.18
	github.com/goccy/go-json v0.12.0
	github.com/google/jsonschema-go v0.4.3
	github.com/kaptinlin/jsonrepair v0.2.15
)

require github.com/go-json-experiment/json v0.0.0-20260623181947-01eb4420fa68 // indirect
