package agenticdriver

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net/http"
	"os"
)

// WithCACertFile trusts the CA certificates in the PEM file at path for an https:// host,
// instead of the system's roots (on Linux those come from SSL_CERT_FILE / SSL_CERT_DIR when
// set): for a host whose certificate a private CA signed, without turning verification off.
// A file that cannot be read or holds no certificate makes New fail. A host whose
// certificate the bundle does not trust fails with a *ConnectionError. Not with
// WithHTTPClient, whose transport makes its own TLS settings.
func WithCACertFile(path string) HostOption {
	return func(o *hostOptions) {
		pem, err := os.ReadFile(path)
		if err != nil {
			o.caErr = fmt.Errorf("WithCACertFile: %w", err)
			return
		}
		o.caPEM = append(o.caPEM, pem...)
	}
}

// WithCACertPEM trusts the CA certificates in pem (PEM text) for an https:// host, like
// WithCACertFile. Both may be given; the client then trusts every certificate given.
func WithCACertPEM(pem []byte) HostOption {
	return func(o *hostOptions) { o.caPEM = append(append(o.caPEM, pem...), '\n') }
}

// trustedRoots is the TLS configuration for the options' CA bundle (nil without one).
func trustedRoots(o *hostOptions) (*tls.Config, error) {
	if o.caErr != nil {
		return nil, o.caErr
	}
	if o.caPEM == nil {
		return nil, nil
	}
	if o.httpClient != nil {
		return nil, errors.New("WithCACertFile/WithCACertPEM cannot be combined with WithHTTPClient: " +
			"set RootCAs on that client's transport instead")
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(o.caPEM) {
		return nil, errors.New("WithCACertFile/WithCACertPEM: no PEM certificate found")
	}
	return &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}, nil
}

// trust gives client's transport (the client's own) the CA bundle's TLS configuration.
func trust(client *http.Client, config *tls.Config) {
	if transport, ok := client.Transport.(*http.Transport); ok && config != nil {
		transport.TLSClientConfig = config
	}
}
