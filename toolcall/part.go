package toolcall

import "context"

// A Part is what of a tool call a repair or a rejection is about. The
// listeners of an integration hear of all parts alike (OnChange, OnError,
// with paths from the part's root); PartOf tells them apart by the
// context they are handed, and the logs name the part.
type Part uint8

const (
	// PartArguments: a call's arguments, as the model sent them.
	PartArguments Part = iota
	// PartResult: a tool's structured result (MCP's structuredContent), as its
	// handler returned it, against the tool's output schema.
	PartResult
	// PartElicited: what a user gave in answer to a server's elicitation
	// (MCP's elicitation/create), against the schema the server requested.
	PartElicited
)

// String returns "arguments", "result" or "elicited".
func (p Part) String() string {
	switch p {
	case PartResult:
		return "result"
	case PartElicited:
		return "elicited"
	}
	return "arguments"
}

type partKey struct{}

// WithPart returns ctx saying that what is reported with it is about p.
func WithPart(ctx context.Context, p Part) context.Context {
	return context.WithValue(ctx, partKey{}, p)
}

// PartOf returns the part that what is reported with ctx is about:
// PartArguments unless WithPart said otherwise.
func PartOf(ctx context.Context) Part {
	p, _ := ctx.Value(partKey{}).(Part)
	return p
}

// The log messages of Listeners, per part.
var (
	repairedMessage = [...]string{PartArguments: "coerce: argument repaired", PartResult: "coerce: result repaired", PartElicited: "coerce: elicited value repaired"}
	rejectedMessage = [...]string{PartArguments: "coerce: argument rejected", PartResult: "coerce: result rejected", PartElicited: "coerce: elicited value rejected"}
	notReadMessage  = [...]string{PartArguments: "coerce: arguments not coerced", PartResult: "coerce: result not coerced", PartElicited: "coerce: elicited content not coerced"}
)

func message(m *[3]string, ctx context.Context) string {
	p := PartOf(ctx)
	if int(p) >= len(m) {
		p = PartArguments
	}
	return m[p]
}
