// Command tags is a user's program: it converts the tags an LLM client sent as
// JSON text to the list of strings its tool declared.
package main

import (
	"fmt"
	"log"
	"os"

	"github.com/coerce-go/coerce"
)

func main() {
	arg := `["go", "generics"]`
	if len(os.Args) > 1 {
		arg = os.Args[1]
	}
	tags, err := coerce.ToDeclared(arg, "list[str]")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(tags)
}
