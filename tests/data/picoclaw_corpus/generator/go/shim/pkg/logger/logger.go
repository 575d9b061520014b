// Package logger stands in for PicoClaw's logger when the corpus harness builds
// PicoClaw's hook host: it records every warning so the harness can report it.
package logger

import "sync"

// Entry is one captured log call.
type Entry struct {
	Level     string         `json:"level"`
	Component string         `json:"component"`
	Message   string         `json:"message"`
	Fields    map[string]any `json:"fields"`
}

var (
	mu      sync.Mutex
	entries []Entry
)

// WarnCF has the signature of PicoClaw's logger.WarnCF.
func WarnCF(component string, message string, fields map[string]any) {
	copied := make(map[string]any, len(fields))
	for key, value := range fields {
		copied[key] = value
	}
	mu.Lock()
	entries = append(entries, Entry{Level: "warn", Component: component, Message: message, Fields: copied})
	mu.Unlock()
}

// Take returns the entries captured since the last call and forgets them.
func Take() []Entry {
	mu.Lock()
	defer mu.Unlock()
	taken := entries
	entries = nil
	return taken
}

// Count returns how many captured entries satisfy match, without taking them.
func Count(match func(Entry) bool) int {
	mu.Lock()
	defer mu.Unlock()
	n := 0
	for _, entry := range entries {
		if match(entry) {
			n++
		}
	}
	return n
}
