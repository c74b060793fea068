package jsrun

import "testing"

func TestSmoke(t *testing.T) {
	r := newTestRunner(Limits{})
	got := mustEval(t, r, `console.log("hi", {a:1}); return [1+1, typeof fetch, typeof URL, new URL("/x?y=1", "https://a.b/c").href]`)
	t.Log(got)
}
