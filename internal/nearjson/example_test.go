package nearjson_test

import (
	"errors"
	"fmt"

	"github.com/coerce-go/coerce/internal/nearjson"
)

func ExampleRepair() {
	out, fixes, err := nearjson.Repair([]byte(`{'tags': ['a', 'b',], 'exact': True}`), nearjson.Limits{})
	fmt.Println(string(out), fixes, err)

	// A call cut off by a token limit is refused, not closed.
	_, _, err = nearjson.Repair([]byte(`{'tags': ['a', 'b'`), nearjson.Limits{})
	var e *nearjson.Error
	fmt.Println(errors.As(err, &e), e.Truncated, e.Offset)
	// Output:
	// {"tags": ["a", "b"], "exact": true} python-literal,single-quote,trailing-comma <nil>
	// true true 18
}
