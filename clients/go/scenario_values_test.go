package agenticdriver_test

// What both scenario players (player_test.go for contract-tests/scenarios, client_scenarios_test.go
// for contract-tests/scenarios/clients) read the same way: references to captured values, the
// matchers, JSON Pointers, a step's path/headers/body and its until pacing.

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

// -- references and matchers ----------------------------------------------------------------------

var referencePattern = regexp.MustCompile(`^\$[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)*$`)

func lookup(variables object, reference string) (any, error) {
	parts := strings.Split(reference, ".")
	value, ok := variables[parts[0]]
	if !ok {
		return nil, failf("$%s: nothing was captured as %s", reference, parts[0])
	}
	for _, part := range parts[1:] {
		switch current := value.(type) {
		case []any:
			index, err := strconv.Atoi(part)
			if err != nil || index < 0 || index >= len(current) {
				return nil, failf("$%s: %s is not in the captured value", reference, part)
			}
			value = current[index]
		case object:
			next, ok := current[part]
			if !ok {
				return nil, failf("$%s: %s is not in the captured value", reference, part)
			}
			value = next
		default:
			return nil, failf("$%s: %s is not in the captured value", reference, part)
		}
	}
	return value, nil
}

func resolve(value any, variables object) (any, error) {
	switch value := value.(type) {
	case string:
		if strings.HasPrefix(value, "$$") {
			return value[1:], nil
		}
		if referencePattern.MatchString(value) {
			return lookup(variables, value[1:])
		}
		return value, nil
	case []any:
		out := make([]any, len(value))
		for i, item := range value {
			resolved, err := resolve(item, variables)
			if err != nil {
				return nil, err
			}
			out[i] = resolved
		}
		return out, nil
	case object:
		if spec, ok := value["$repeat"].(object); ok && len(value) == 1 {
			text, err := resolve(spec["text"], variables)
			if err != nil {
				return nil, err
			}
			times, err := resolve(spec["times"], variables)
			if err != nil {
				return nil, err
			}
			count, _ := times.(float64)
			return strings.Repeat(fmt.Sprint(text), int(count)), nil
		}
		out := object{}
		for key, item := range value {
			resolved, err := resolve(item, variables)
			if err != nil {
				return nil, err
			}
			out[key] = resolved
		}
		return out, nil
	}
	return value, nil
}

type missingValue struct{}

var missing = missingValue{}

func pointer(document any, hasDocument bool, location string) any {
	if !hasDocument {
		return missing
	}
	if location == "" {
		return document
	}
	value := document
	for _, raw := range strings.Split(location[1:], "/") {
		part := strings.ReplaceAll(strings.ReplaceAll(raw, "~1", "/"), "~0", "~")
		switch current := value.(type) {
		case object:
			next, ok := current[part]
			if !ok {
				return missing
			}
			value = next
		case []any:
			index, err := strconv.Atoi(part)
			if err != nil || index < 0 || index >= len(current) {
				return missing
			}
			value = current[index]
		default:
			return missing
		}
	}
	return value
}

var jsonTypes = map[string]func(any) bool{
	"string":  func(v any) bool { _, ok := v.(string); return ok },
	"integer": func(v any) bool { n, ok := v.(float64); return ok && n == math.Trunc(n) },
	"number":  func(v any) bool { _, ok := v.(float64); return ok },
	"boolean": func(v any) bool { _, ok := v.(bool); return ok },
	"object":  func(v any) bool { _, ok := v.(object); return ok },
	"array":   func(v any) bool { _, ok := v.([]any); return ok },
	"null":    func(v any) bool { return v == nil },
}

func matches(actual, expected any, variables object) (bool, error) {
	if operators, ok := expected.(object); ok && len(operators) == 1 {
		for operator, argument := range operators {
			if !strings.HasPrefix(operator, "$") || operator == "$repeat" {
				break
			}
			argument, err := resolve(argument, variables)
			if err != nil {
				return false, err
			}
			if operator == "$exists" {
				return (actual != missing) == argument, nil
			}
			if actual == missing {
				return false, nil
			}
			switch operator {
			case "$len":
				length := -1
				switch actual := actual.(type) {
				case []any:
					length = len(actual)
				case object:
					length = len(actual)
				case string:
					length = len([]rune(actual))
				}
				count, _ := argument.(float64)
				return length == int(count), nil
			case "$in":
				options, _ := argument.([]any)
				for _, option := range options {
					if reflect.DeepEqual(actual, option) {
						return true, nil
					}
				}
				return false, nil
			case "$ne":
				return !reflect.DeepEqual(actual, argument), nil
			case "$type":
				check, ok := jsonTypes[fmt.Sprint(argument)]
				return ok && check(actual), nil
			default:
				return false, failf("unknown matcher %s", operator)
			}
		}
	}
	resolved, err := resolve(expected, variables)
	if err != nil {
		return false, err
	}
	return actual != missing && reflect.DeepEqual(actual, resolved), nil
}

func shown(value any) string {
	if value == missing {
		return "(missing)"
	}
	raw, _ := json.Marshal(value)
	return truncate(string(raw), 300)
}

func sortedKeys(values object) []string {
	keys := make([]string, 0, len(values))
	for key := range values {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	return keys
}

var embeddedReference = regexp.MustCompile(`\$[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)*`)

// interpolate replaces the references inside a fault's or a log selector's path
// ("/v1/sessions/$s.id"), which the scenarios use although a value elsewhere is a reference
// only when it is one whole.
func interpolate(path string, variables object) (string, error) {
	var failure error
	out := embeddedReference.ReplaceAllStringFunc(path, func(reference string) string {
		value, err := lookup(variables, reference[1:])
		if err != nil {
			failure = err
			return reference
		}
		return fmt.Sprint(value)
	})
	return out, failure
}

// -- what a step says ------------------------------------------------------------------------------

// stepFields resolves a step's path and headers (objects) and its body against the captured values.
func stepFields(step object, variables object) (path, headers object, body any, err error) {
	path, headers = object{}, object{}
	for _, field := range []struct {
		key  string
		into *object
	}{{"path", &path}, {"headers", &headers}} {
		if raw, ok := step[field.key]; ok {
			resolved, err := resolve(raw, variables)
			if err != nil {
				return path, headers, nil, err
			}
			*field.into, _ = resolved.(object)
		}
	}
	if raw, ok := step["body"]; ok {
		if body, err = resolve(raw, variables); err != nil {
			return path, headers, nil, err
		}
	}
	return path, headers, body, nil
}

// untilPacing is when a step's until gives up (timeoutMs from now) and how long it waits between
// attempts (intervalMs, 20 ms unless it says).
func untilPacing(until object) (deadline time.Time, interval time.Duration) {
	timeout, _ := until["timeoutMs"].(float64)
	milliseconds := 20.0
	if value, ok := until["intervalMs"].(float64); ok {
		milliseconds = value
	}
	return time.Now().Add(time.Duration(timeout) * time.Millisecond), time.Duration(milliseconds) * time.Millisecond
}

// mismatches lists, in key order, "<what> <key> is <actual>, expected <wanted>" for each key of
// expected whose actual value (read by actual) does not match; label names a key in the message.
func mismatches(what string, expected, variables object, actual func(key string) (any, error), label func(key string) string) ([]string, error) {
	var problems []string
	for _, key := range sortedKeys(expected) {
		value, err := actual(key)
		if err != nil {
			return nil, err
		}
		ok, err := matches(value, expected[key], variables)
		if err != nil {
			return nil, err
		}
		if !ok {
			problems = append(problems, fmt.Sprintf("%s %s is %s, expected %s", what, label(key), shown(value), shown(expected[key])))
		}
	}
	return problems, nil
}

// asIs is a label that names a key as it is written.
func asIs(key string) string { return key }
