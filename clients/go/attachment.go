package agenticdriver

import "encoding/base64"

// NewAttachment is a file for a run's Attachments, content base64-encoded (which media types an
// instance takes is in discovery's AttachmentMediaTypes).
//
//	request.Attachments = []agenticdriver.Attachment{agenticdriver.NewAttachment("notes.txt", "text/plain", content)}
func NewAttachment(name, mediaType string, content []byte) Attachment {
	return Attachment{Name: name, MediaType: mediaType, Data: base64.StdEncoding.EncodeToString(content)}
}
