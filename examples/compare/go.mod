module github.com/coerce-go/coerce/examples/compare

go 1.26.6

require github.com/coerce-go/coerce v0.1.0

require (
	charm.land/fantasy v0.41.2
	github.com/RealAlexandreAI/json-repair v0.0.18
	github.com/bytedance/sonic v1.15.5
	github.com/goccy/go-json v0.12.0
	github.com/google/jsonschema-go v0.4.3
	github.com/kaptinlin/jsonrepair v0.2.15
	github.com/segmentio/encoding v0.5.4
)

require (
	github.com/bytedance/gopkg v0.1.3 // indirect
	github.com/bytedance/sonic/loader v0.5.3 // indirect
	github.com/cloudwego/base64x v0.1.6 // indirect
	github.com/go-json-experiment/json v0.0.0-20260623181947-01eb4420fa68 // indirect
	github.com/klauspost/cpuid/v2 v2.2.9 // indirect
	github.com/segmentio/asm v1.1.3 // indirect
	github.com/twitchyliquid64/golang-asm v0.15.1 // indirect
	golang.org/x/arch v0.0.0-20210923205945-b76863e36670 // indirect
	golang.org/x/sys v0.47.0 // indirect
)
