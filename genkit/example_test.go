package genkitcoerce_test

import (
	"context"
	"fmt"
	"log"

	"github.com/coerce-go/coerce"
	genkitcoerce "github.com/coerce-go/coerce/genkit"
	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"
)

type SearchInput struct {
	Query string   `json:"query"`
	Limit int      `json:"limit"`
	Tags  []string `json:"tags"`
}

func search(_ *ai.ToolContext, in SearchInput) (string, error) {
	return fmt.Sprintf("%d results for %q tagged %q", in.Limit, in.Query, in.Tags), nil
}

// The model calls the search tool with the limit as a string and the tags
// as JSON text; Genkit's validation would reject both. With the middleware
// installed, the tool receives them as it declared them.
func Example() {
	ctx := context.Background()
	g := genkit.Init(ctx)
	// A model that makes the tool call its prompt writes, as a model would.
	model := defineScriptedModel(g, "example/model", false)
	searchTool := genkit.DefineTool(g, "search", "Searches the documents.", search)

	resp, err := genkit.Generate(ctx, g, ai.WithModel(model), ai.WithTools(searchTool),
		ai.WithPrompt(`search {"query": "generics", "limit": "5", "tags": "[\"go\"]"}`),
		ai.WithMiddleware(genkitcoerce.Middleware()))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(resp.Text())
	// Output:
	// 5 results for "generics" tagged ["go"]
}

// OnError sees what could not be repaired. The tool does not run: the
// model is asked again, with the feedback as the tool's response, and
// this scripted model answers with what it read.
func ExampleOptions() {
	ctx := context.Background()
	g := genkit.Init(ctx)
	model := defineScriptedModel(g, "example/model", false)
	searchTool := genkit.DefineTool(g, "search", "Searches the documents.", search)

	repair := genkitcoerce.Options{
		OnChange: func(_ context.Context, tool string, c coerce.Change) {
			fmt.Printf("%s: %s %s -> %s (%s)\n", tool, c.Path, c.Found, c.Declared, c.Rule)
		},
		OnError: func(_ context.Context, tool string, err error) {
			fmt.Printf("%s: %v\n", tool, err)
		},
	}.Middleware()

	resp, err := genkit.Generate(ctx, g, ai.WithModel(model), ai.WithTools(searchTool),
		ai.WithPrompt(`search {"query": "generics", "limit": "five", "tags": "[\"go\"]"}`),
		ai.WithMiddleware(repair))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(resp.Text())
	// Output:
	// search: coerce: /limit: want integer, found string "five": invalid syntax: not a number
	// Invalid arguments: 1 problem. Correct it and send the call again.
	// - /limit: expected an integer; found the string "five", which is not valid (not a number). Example: 1
}
