# helm: the chart that installs Isolato into shared clusters. Its CRDs are the ones the
# controller build generates from the Java types; `make helm-crds` copies them in.
.PHONY: helm-tool helm-path helm-crds helm-docs bench-controller-image test-helm test-helm-e2e test-prometheus-rules controller-image-context controller-image
HELM_VERSION := v3.22.0
HELM := $(HOME)/.cache/isolato/tools/helm-$(HELM_VERSION)
UNIT_TEST_TARGETS += test-helm test-prometheus-rules
# test-helm packages the controller (controller-build) when its jar is not current
UNIT_JVM_TARGETS += test-helm
E2E_TEST_TARGETS += test-helm-e2e

helm-tool:
	@[ -x $(HELM) ] || { echo "[helm] building helm $(HELM_VERSION) from the Go module proxy (cold: ~3 min)"; \
	  d=$$(mktemp -d) && GOBIN=$$d CGO_ENABLED=0 go install helm.sh/helm/v3/cmd/helm@$(HELM_VERSION) \
	  && mkdir -p $(dir $(HELM)) && mv $$d/helm $(HELM) && rmdir $$d; }

helm-path: helm-tool # the helm binary's path, for scripts run outside make (scripts/stop.sh)
	@echo $(HELM)

helm-crds: controller-build ## copy the generated CRDs into the chart
	@cp controller/target/classes/META-INF/fabric8/sloclasses.isolato.dev-v1.yml helm/isolato/crds/sloclasses.isolato.dev.yaml
	@cp controller/target/classes/META-INF/fabric8/tenants.isolato.dev-v1.yml helm/isolato/crds/tenants.isolato.dev.yaml
	@cp controller/target/classes/META-INF/fabric8/slopools.isolato.dev-v1.yml helm/isolato/crds/slopools.isolato.dev.yaml

test-helm: controller-build helm-tool ## chart lints, renders, and ships the CRDs the Java types generate
	@for c in sloclasses tenants slopools; do \
	  cmp -s controller/target/classes/META-INF/fabric8/$$c.isolato.dev-v1.yml helm/isolato/crds/$$c.isolato.dev.yaml \
	  || { echo "[helm] helm/isolato/crds/$$c.isolato.dev.yaml is stale: run 'make helm-crds'"; exit 1; }; done
	@$(HELM) lint --strict --kube-version v1.34.4 helm/isolato >/dev/null
	@$(HELM) template isolato helm/isolato --namespace isolato-system --kube-version v1.34.4 | grep -q 'kind: ClusterRole$$'
	@helm/check-rules-render.sh $(HELM)
	@$(HELM) template isolato helm/isolato --kube-version v1.34.4 --set pools.gateImage=registry.example.com/isolato/gate:1 \
	  | grep -q 'ISOLATO_GATE_IMAGE, value: "registry.example.com/isolato/gate:1"' \
	  || { echo "[helm] pools.gateImage does not reach the controller's ISOLATO_GATE_IMAGE"; exit 1; }
	@$(HELM) template isolato helm/isolato --kube-version v1.34.4 --set calibration.contextSettle=90s \
	  | grep -q 'ISOLATO_CALIBRATION_CONTEXTSETTLE, value: "90s"' \
	  || { echo "[helm] calibration.contextSettle does not reach the controller's ISOLATO_CALIBRATION_CONTEXTSETTLE"; exit 1; }
	@$(HELM) template isolato helm/isolato --kube-version v1.34.4 | grep -q 'topologyKey: kubernetes.io/hostname' \
	  || { echo "[helm] two replicas are not spread over nodes (spreadReplicas)"; exit 1; }
	@$(HELM) template isolato helm/isolato --kube-version v1.34.4 --set replicas=1 | grep -q topologySpreadConstraints \
	  && { echo "[helm] one replica got a topology spread"; exit 1; } || true
	@$(HELM) template isolato helm/isolato --set calibration.contextSettle=-1s >/dev/null 2>&1 && { echo "[helm] the schema accepted calibration.contextSettle=-1s"; exit 1; } || true
	@$(HELM) template isolato helm/isolato --set replicas=0 >/dev/null 2>&1 && { echo "[helm] the schema accepted replicas=0"; exit 1; } || true
	@python3 helm/tools/values_doc.py --check docs/install.md
	@echo "[helm] chart lints and renders (Prometheus rules as ConfigMap and PrometheusRule, pools.gateImage as ISOLATO_GATE_IMAGE), its schema refuses a bad value; CRDs match the Java types; docs/install.md's values reference is current"

# The one rules file (helm/isolato/files/isolato-rules.yaml, also loaded by localkube's
# Prometheus): valid, and its unit tests (input series → recorded values, firing alerts) pass.
test-prometheus-rules: ## promtool check + unit tests of Isolato's Prometheus rules
	@command -v promtool >/dev/null || { echo "[prometheus] promtool is missing (Debian package prometheus); run 'make deps'"; exit 1; }
	@out=$$(promtool check rules helm/isolato/files/isolato-rules.yaml 2>&1) || { echo "$$out"; exit 1; }
	@out=$$(promtool test rules helm/rules-test.yaml 2>&1) || { echo "$$out"; exit 1; }
	@echo "[prometheus] rules valid; unit tests pass (helm/rules-test.yaml)"

# The chart's image: built without a registry (controller/image/stage.sh) and loaded into the
# running localkube, tagged as the chart's default image.
CONTROLLER_IMAGE := localhost/isolato/controller:0.1.0
controller-image-context: controller-build
	@controller/image/stage.sh controller/target/isolato-controller.jar $(CURDIR)/build/controller-image

controller-image: controller-image-context ## build the controller image and load it into the running localkube
	@$(LOCALKUBE) status >/dev/null 2>&1 || { echo "[helm] localkube is not running: 'localkube/localkube up' first"; exit 1; }
	@$(LOCALKUBE) load-image --build $(CURDIR)/build/controller-image --tag $(CONTROLLER_IMAGE)
	@echo "[helm] $(CONTROLLER_IMAGE) loaded ($$(podman image inspect $(CONTROLLER_IMAGE) --format '{{.Size}}' | numfmt --to=si)B)"

test-helm-e2e: controller-build saas-bench-build helm-tool ## the chart on localkube: install, test, fail-over, upgrade, uninstall
	@HELM=$(HELM) helm/test/e2e.sh

helm-docs: ## regenerate the values reference in docs/install.md from values.schema.json
	@python3 helm/tools/values_doc.py docs/install.md

bench-controller-image: controller-build saas-bench-build helm-tool ## controller image size, start-to-ready, leader hand-over → docs/benchmarks-log.md (cluster must run)
	@HELM=$(HELM) bench/isolato-bench image
