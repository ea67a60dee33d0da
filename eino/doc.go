// Package einocoerce installs coerce on eino.
package einocoerce
