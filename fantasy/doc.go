// Package fantasycoerce repairs the tool calls of a charm.land/fantasy agent.
package fantasycoerce
