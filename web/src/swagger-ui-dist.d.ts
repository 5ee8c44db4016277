// swagger-ui-dist ships no type declarations: the one call the docs page makes.
declare module 'swagger-ui-dist/swagger-ui-es-bundle.js' {
  export default function SwaggerUIBundle(options: {
    url: string;
    dom_id: string;
    validatorUrl: null;
    deepLinking: boolean;
  }): unknown;
}
