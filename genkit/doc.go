// Package genkitcoerce installs coerce on genkit.
package genkitcoerce
