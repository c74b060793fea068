package jsrun

import (
	"crypto"
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/x509"
	"fmt"
	"hash"
)

// The WebCrypto operations scripts use (crypto.subtle), done by Go's crypto; the JavaScript
// side keeps the CryptoKey objects and argument checking, and hands raw bytes here.

func hashFor(name string) (func() hash.Hash, crypto.Hash, error) {
	switch name {
	case "SHA-1":
		return sha1.New, crypto.SHA1, nil
	case "SHA-256":
		return sha256.New, crypto.SHA256, nil
	case "SHA-384":
		return sha512.New384, crypto.SHA384, nil
	case "SHA-512":
		return sha512.New, crypto.SHA512, nil
	}
	return nil, 0, fmt.Errorf("NotSupportedError: hash %q is not supported", name)
}

func digest(alg string, data []byte) ([]byte, error) {
	h, _, err := hashFor(alg)
	if err != nil {
		return nil, err
	}
	d := h()
	d.Write(data)
	return d.Sum(nil), nil
}

func hmacSign(alg string, key, data []byte) ([]byte, error) {
	h, _, err := hashFor(alg)
	if err != nil {
		return nil, err
	}
	m := hmac.New(h, key)
	m.Write(data)
	return m.Sum(nil), nil
}

func hmacVerify(alg string, key, data, sig []byte) (bool, error) {
	want, err := hmacSign(alg, key, data)
	if err != nil {
		return false, err
	}
	return hmac.Equal(want, sig), nil
}

// rsaPrivate reads a PKCS#8 private key, the format WebCrypto's importKey("pkcs8") takes.
func rsaPrivate(der []byte) (*rsa.PrivateKey, error) {
	k, err := x509.ParsePKCS8PrivateKey(der)
	if err != nil {
		return nil, fmt.Errorf("DataError: the key is not PKCS#8: %v", err)
	}
	rk, ok := k.(*rsa.PrivateKey)
	if !ok {
		return nil, fmt.Errorf("DataError: the PKCS#8 key is not an RSA key")
	}
	return rk, nil
}

// rsaPublic reads an SPKI public key, or the public half of a PKCS#8 private key.
func rsaPublic(der []byte, private bool) (*rsa.PublicKey, error) {
	if private {
		k, err := rsaPrivate(der)
		if err != nil {
			return nil, err
		}
		return &k.PublicKey, nil
	}
	k, err := x509.ParsePKIXPublicKey(der)
	if err != nil {
		return nil, fmt.Errorf("DataError: the key is not SPKI: %v", err)
	}
	rk, ok := k.(*rsa.PublicKey)
	if !ok {
		return nil, fmt.Errorf("DataError: the SPKI key is not an RSA key")
	}
	return rk, nil
}

func rsaSign(alg string, der, data []byte) ([]byte, error) {
	newHash, h, err := hashFor(alg)
	if err != nil {
		return nil, err
	}
	k, err := rsaPrivate(der)
	if err != nil {
		return nil, err
	}
	d := newHash()
	d.Write(data)
	return rsa.SignPKCS1v15(rand.Reader, k, h, d.Sum(nil))
}

func rsaVerify(alg string, der []byte, private bool, data, sig []byte) (bool, error) {
	newHash, h, err := hashFor(alg)
	if err != nil {
		return false, err
	}
	k, err := rsaPublic(der, private)
	if err != nil {
		return false, err
	}
	d := newHash()
	d.Write(data)
	return rsa.VerifyPKCS1v15(k, h, d.Sum(nil), sig) == nil, nil
}

func aesGCM(key []byte, ivLen, tagBits int) (cipher.AEAD, error) {
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("DataError: %v", err)
	}
	if tagBits == 0 {
		tagBits = 128
	}
	if tagBits%8 != 0 || tagBits < 96 || tagBits > 128 {
		return nil, fmt.Errorf("OperationError: tagLength %d is not supported", tagBits)
	}
	if ivLen == 0 {
		return nil, fmt.Errorf("OperationError: the iv is empty")
	}
	if tagBits == 128 {
		return cipher.NewGCMWithNonceSize(block, ivLen)
	}
	if ivLen != 12 {
		return nil, fmt.Errorf("OperationError: a tagLength below 128 needs a 12-byte iv")
	}
	return cipher.NewGCMWithTagSize(block, tagBits/8)
}

func aesEncrypt(key, iv, aad, data []byte, tagBits int) ([]byte, error) {
	g, err := aesGCM(key, len(iv), tagBits)
	if err != nil {
		return nil, err
	}
	return g.Seal(nil, iv, data, aad), nil
}

func aesDecrypt(key, iv, aad, data []byte, tagBits int) ([]byte, error) {
	g, err := aesGCM(key, len(iv), tagBits)
	if err != nil {
		return nil, err
	}
	out, err := g.Open(nil, iv, data, aad)
	if err != nil {
		return nil, fmt.Errorf("OperationError: the data does not decrypt with this key")
	}
	return out, nil
}
