package genkitcoerce_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"
)

// defineScriptedModel defines a model that calls the tools its prompt
// names. Each line of the user's last message is a tool call as a model
// writes it, the tool's name and its input as JSON text:
//
//	search {"query": "genkit", "limit": "5"}
//
// The model answers with those tool requests; once the tools have
// answered, it replies with their outputs, one line each: a string as it
// is, anything else as JSON text.
//
// It decodes each input as Genkit's model plugins decode a provider's tool
// call, with encoding/json, so numbers arrive as float64; with useNumber
// they arrive as json.Number, as from a model implementation that keeps
// them exact.
func defineScriptedModel(g *genkit.Genkit, name string, useNumber bool) ai.Model {
	return genkit.DefineModel(g, name, &ai.ModelOptions{
		Label:    "scripted",
		Supports: &ai.ModelSupports{Multiturn: true, Tools: true, SystemRole: true},
	}, func(ctx context.Context, req *ai.ModelRequest, _ ai.ModelStreamCallback) (*ai.ModelResponse, error) {
		last := req.Messages[len(req.Messages)-1]
		if last.Role == ai.RoleTool {
			var out strings.Builder
			for _, p := range last.Content {
				if !p.IsToolResponse() {
					continue
				}
				if s, ok := p.ToolResponse.Output.(string); ok {
					fmt.Fprintf(&out, "%s\n", s)
					continue
				}
				text, err := json.Marshal(p.ToolResponse.Output)
				if err != nil {
					return nil, err
				}
				fmt.Fprintf(&out, "%s\n", text)
			}
			return &ai.ModelResponse{Request: req, Message: ai.NewModelTextMessage(out.String())}, nil
		}
		msg := &ai.Message{Role: ai.RoleModel}
		for line := range strings.Lines(last.Text()) {
			tool, input, ok := strings.Cut(strings.TrimSpace(line), " ")
			if !ok {
				return nil, fmt.Errorf("scripted model: %q is not a tool call", line)
			}
			dec := json.NewDecoder(strings.NewReader(input))
			if useNumber {
				dec.UseNumber()
			}
			var v any
			if err := dec.Decode(&v); err != nil {
				return nil, fmt.Errorf("scripted model: input of %s: %w", tool, err)
			}
			msg.Content = append(msg.Content, ai.NewToolRequestPart(&ai.ToolRequest{Name: tool, Input: v}))
		}
		return &ai.ModelResponse{Request: req, Message: msg, FinishReason: ai.FinishReasonStop}, nil
	})
}

// call writes a tool call as the scripted model reads it: the tool's name
// and its input as JSON text, without escaping HTML.
func call(tool string, input any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(input); err != nil {
		panic(err)
	}
	return tool + " " + strings.TrimSpace(b.String())
}
