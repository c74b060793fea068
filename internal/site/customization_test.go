package site

import (
	"strings"
	"testing"
)

func TestDefaultCustomizationIsValid(t *testing.T) {
	if err := validateJSON("customization", customizationSchema, defaultCustomization); err != nil {
		t.Fatalf("the default customization does not match the schema: %v", err)
	}
	if _, err := decodeCustomization(defaultCustomization); err != nil {
		t.Fatal(err)
	}
}

func TestCustomizationSchemaRefusesBadColour(t *testing.T) {
	doc := strings.Replace(string(defaultCustomization), `"#346DDB", "dark"`, `"blue", "dark"`, 1)
	err := validateJSON("customization", customizationSchema, []byte(doc))
	if err == nil || !strings.Contains(err.Error(), "styling.primaryColor.light") {
		t.Fatalf("got %v, want an error naming styling.primaryColor.light", err)
	}
}

func TestMergePatch(t *testing.T) {
	got, err := mergePatch([]byte(`{"a":{"b":1,"c":2},"d":3}`), []byte(`{"a":{"b":null,"e":4},"d":[1]}`))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != `{"a":{"c":2,"e":4},"d":[1]}` {
		t.Fatalf("got %s", got)
	}
}
