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

// OnChange sees each repair, and OnError what could not be repaired: the
// call goes on without it, and Genkit's validation rejects it.
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

	_, err := genkit.Generate(ctx, g, ai.WithModel(model), ai.WithTools(searchTool),
		ai.WithPrompt(`search {"query": "generics", "limit": "five", "tags": "[\"go\"]"}`),
		ai.WithMiddleware(repair))
	fmt.Println(err)
	// Output:
	// search: /tags string -> list[string] (json-text)
	// search: coerce: /limit: want integer, found string "five": invalid syntax: not a number
	// tool "search" failed: error calling tool search: data did not match expected schema:
	// - limit: Invalid type. Expected: integer, given: string
}
