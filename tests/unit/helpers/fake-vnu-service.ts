/**
 * A stand-in for the Nu HTML checker's HTTP service (`java … nu.validator.servlet.Main
 * <port>`), run by helpers/fake-java: listens on 127.0.0.1 at the port its last argument
 * names and answers every page with no message, as the service does for a valid page.
 */
import { createServer } from 'node:http'

const port = Number(process.argv.at(-1))
if (!Number.isInteger(port) || port <= 0) {
  console.error(`fake vnu service: the last argument must be the port, not "${process.argv.at(-1)}"`)
  process.exit(2)
}
createServer((request, response) => {
  request.resume()
  request.on('end', () => {
    response.writeHead(200, { 'Content-Type': 'application/json' })
    response.end(JSON.stringify({ messages: [] }))
  })
}).listen(port, '127.0.0.1')
