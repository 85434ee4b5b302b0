// Reads a WARC file with node-warc (npm) and prints one JSON line per
// record: its type, target URI, record ID, payload digest and the length
// base64 of what node-warc parses as the record's content (node-warc keeps
// the first CRLF of the two that end a record).
'use strict'
const { AutoWARCParser } = require('node-warc')
const parser = new AutoWARCParser(process.argv[2])
parser.on('record', r => {
  const content = r.content || Buffer.alloc(0)
  console.log(JSON.stringify({
    type: r.warcType,
    uri: r.warcTargetURI || '',
    id: r.warcRecordID,
    payloadDigest: r.warcPayloadDigest || '',
    concurrentTo: r.warcConcurrentTo || '',
    refersTo: r.warcRefersTo || '',
    content: content.toString('base64')
  }))
})
parser.on('error', e => {
  // node-warc 3.3.1's WARCStreamTransform._flush calls its callback twice
  // when bytes are left buffered at the end (lib/parsers/
  // warcStreamTransform.js): Node 20 reports it after every record has been
  // emitted. The Go test counts the records, so nothing is hidden by this.
  if (e.code === 'ERR_MULTIPLE_CALLBACK') return
  console.error(e)
  process.exit(1)
})
parser.start()
