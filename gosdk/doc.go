// Package gosdkcoerce installs coerce on gosdk.
package gosdkcoerce
