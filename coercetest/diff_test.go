package coercetest_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
)

// diff returns "" when want and got are deeply equal, and otherwise shows
// where their renderings part: the first differing line of each, with a
// few lines before it. Values are rendered as indented JSON (map keys
// sorted), or with %#v where JSON would hide the difference (5 and 5.0,
// a nil and an empty slice).
func diff(want, got any) string {
	if reflect.DeepEqual(want, got) {
		return ""
	}
	w, g := render(want), render(got)
	if w == g {
		w, g = fmt.Sprintf("%#v", want), fmt.Sprintf("%#v", got)
	}
	wl, gl := strings.Split(w, "\n"), strings.Split(g, "\n")
	i := 0
	for i < len(wl) && i < len(gl) && wl[i] == gl[i] {
		i++
	}
	var b strings.Builder
	for _, l := range wl[max(0, i-3):i] {
		fmt.Fprintf(&b, "  %s\n", l)
	}
	for _, l := range wl[i:min(len(wl), i+6)] {
		fmt.Fprintf(&b, "- %s\n", l)
	}
	for _, l := range gl[i:min(len(gl), i+6)] {
		fmt.Fprintf(&b, "+ %s\n", l)
	}
	return b.String()
}

func render(v any) string {
	text, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Sprintf("%#v", v)
	}
	return string(text)
}
