# helm: the chart that installs Isolato into shared clusters. Its CRDs are the ones the
# controller build generates from the Java types; `make helm-crds` copies them in.
.PHONY: helm-tool helm-crds test-helm test-prometheus-rules
HELM_VERSION := v3.22.0
HELM := $(HOME)/.cache/isolato/tools/helm-$(HELM_VERSION)
UNIT_TEST_TARGETS += test-helm test-prometheus-rules

helm-tool:
	@[ -x $(HELM) ] || { echo "[helm] building helm $(HELM_VERSION) from the Go module proxy (cold: ~3 min)"; \
	  d=$$(mktemp -d) && GOBIN=$$d CGO_ENABLED=0 go install helm.sh/helm/v3/cmd/helm@$(HELM_VERSION) \
	  && mkdir -p $(dir $(HELM)) && mv $$d/helm $(HELM) && rmdir $$d; }

helm-crds: controller-build ## copy the generated CRDs into the chart
	@cp controller/target/classes/META-INF/fabric8/sloclasses.isolato.dev-v1.yml helm/isolato/crds/sloclasses.isolato.dev.yaml
	@cp controller/target/classes/META-INF/fabric8/tenants.isolato.dev-v1.yml helm/isolato/crds/tenants.isolato.dev.yaml

test-helm: controller-build helm-tool ## chart lints, renders, and ships the CRDs the Java types generate
	@for c in sloclasses tenants; do \
	  cmp -s controller/target/classes/META-INF/fabric8/$$c.isolato.dev-v1.yml helm/isolato/crds/$$c.isolato.dev.yaml \
	  || { echo "[helm] helm/isolato/crds/$$c.isolato.dev.yaml is stale: run 'make helm-crds'"; exit 1; }; done
	@$(HELM) lint --strict --kube-version v1.34.4 helm/isolato >/dev/null
	@$(HELM) template isolato helm/isolato --namespace isolato-system --kube-version v1.34.4 | grep -q 'kind: ClusterRole$$'
	@helm/check-rules-render.sh $(HELM)
	@echo "[helm] chart lints and renders (Prometheus rules as ConfigMap and PrometheusRule); CRDs match the Java types"

# The one rules file (helm/isolato/files/isolato-rules.yaml, also loaded by localkube's
# Prometheus): valid, and its unit tests (input series → recorded values, firing alerts) pass.
test-prometheus-rules: ## promtool check + unit tests of Isolato's Prometheus rules
	@command -v promtool >/dev/null || { echo "[prometheus] promtool is missing (Debian package prometheus); run 'make deps'"; exit 1; }
	@out=$$(promtool check rules helm/isolato/files/isolato-rules.yaml 2>&1) || { echo "$$out"; exit 1; }
	@out=$$(promtool test rules helm/rules-test.yaml 2>&1) || { echo "$$out"; exit 1; }
	@echo "[prometheus] rules valid; unit tests pass (helm/rules-test.yaml)"
