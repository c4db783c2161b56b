// The host's /docs page: Swagger UI (vendored, see swagger-ui/VERSION) rendering this host's own contract.
// Every URL is relative to /docs, so the page works wherever an embedding application mounts the host, and
// "Try it out" talks to the host that serves the page (the contract's `servers` name example hosts, which
// the page's Content-Security-Policy would not let it reach anyway). Nothing is loaded from another origin.
const thisHost = new URL(".", window.location.href).href.replace(/\/$/, "");

fetch("openapi.json", { headers: { Accept: "application/json" } })
  .then((response) => {
    if (!response.ok) throw new Error(`GET openapi.json answered ${response.status}`);
    return response.json();
  })
  .then((spec) => {
    spec.servers = [{ url: thisHost, description: "This host (the one serving this page)" }];
    window.ui = SwaggerUIBundle({
      spec,
      dom_id: "#swagger-ui",
      deepLinking: true,
      displayOperationId: true,
      docExpansion: "list",
      defaultModelsExpandDepth: 0,
      validatorUrl: null,
      queryConfigEnabled: false,
      persistAuthorization: false,
    });
  })
  .catch((error) => {
    document.getElementById("swagger-ui").textContent = `The contract could not be loaded: ${error.message}`;
    console.error(error);
  });
