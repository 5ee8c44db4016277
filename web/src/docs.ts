// /docs: the API reference, rendered in the browser from the server's own
// /openapi.json by Swagger UI, bundled with the console (no CDN: it works
// without internet). The validator is off: it would send the document to
// validator.swagger.io.
import SwaggerUIBundle from 'swagger-ui-dist/swagger-ui-es-bundle.js';
import 'swagger-ui-dist/swagger-ui.css';

SwaggerUIBundle({ url: '/openapi.json', dom_id: '#docs', validatorUrl: null, deepLinking: true });
