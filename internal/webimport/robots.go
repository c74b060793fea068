package webimport

import (
	"bufio"
	"strings"
)

// robots holds the rules of a robots.txt that apply to docsd: the group naming docsd, else
// the group for every agent. The longest matching rule wins; Allow wins a tie.
type robots struct {
	rules []rule
}

type rule struct {
	allow  bool
	prefix string
}

// userAgent is how the crawler names itself, to servers and in robots.txt.
const userAgent = "docsd-import"

func parseRobots(text string) *robots {
	groups := map[string][]rule{}
	var agents []string
	inRules := false
	sc := bufio.NewScanner(strings.NewReader(text))
	for lines := 0; sc.Scan() && lines < 10000; lines++ {
		line := sc.Text()
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		key, value, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		key, value = strings.ToLower(strings.TrimSpace(key)), strings.TrimSpace(value)
		switch key {
		case "user-agent":
			if inRules {
				agents, inRules = nil, false
			}
			agents = append(agents, strings.ToLower(value))
		case "allow", "disallow":
			inRules = true
			if value == "" {
				continue // "Disallow:" allows everything
			}
			for _, a := range agents {
				groups[a] = append(groups[a], rule{allow: key == "allow", prefix: value})
			}
		}
	}
	if g, ok := groups[userAgent]; ok {
		return &robots{rules: g}
	}
	return &robots{rules: groups["*"]}
}

// allowed reports whether the robots rules let the crawler fetch path (with its query).
func (r *robots) allowed(path string) bool {
	best, allow := -1, true
	for _, ru := range r.rules {
		p := strings.TrimSuffix(ru.prefix, "$")
		if i := strings.IndexByte(p, '*'); i >= 0 {
			p = p[:i] // a wildcard: the rule is read as the prefix before it, the stricter reading
		}
		if strings.HasPrefix(path, p) && (len(p) > best || len(p) == best && ru.allow) {
			best, allow = len(p), ru.allow
		}
	}
	return allow
}
