// Package mcpgocoerce installs coerce on mcpgo.
package mcpgocoerce
