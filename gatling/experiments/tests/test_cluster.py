import pytest
from runner.cluster import ClusterError, pool_selector, ready_replicas, service_url


def svc(ns, ip="10.96.0.7", ports=({"name": "http", "port": 8080},)):
    return {
        "metadata": {"namespace": ns, "name": "saas-bench"},
        "spec": {"clusterIP": ip, "ports": list(ports)},
    }


def test_the_pool_is_found_by_labels_not_by_namespace_name():
    selector = "isolato.dev/class=gold,isolato.dev/isolation=shared,!isolato.dev/role"
    assert pool_selector("gold") == selector  # the filler (role label) is not the class's
    # any namespace scheme: the URL comes from the one labelled Service
    assert service_url([svc("isolato-c-gold")], "gold") == "http://10.96.0.7:8080"


def test_the_http_port_is_the_named_one():
    ports = ({"name": "metrics", "port": 9090}, {"name": "http", "port": 8081})
    assert service_url([svc("x", ports=ports)], "gold") == "http://10.96.0.7:8081"


@pytest.mark.parametrize(
    ("services", "message"),
    [
        ([], "found 0 .*kubectl get svc -A -l isolato.dev/class=gold"),
        ([svc("a"), svc("b")], "found 2: a/saas-bench, b/saas-bench"),
        ([svc("a", ip="None")], "no ClusterIP"),
        ([svc("a", ports=())], "no port 'http'"),
    ],
)
def test_no_single_usable_service_is_a_clear_error(services, message):
    with pytest.raises(ClusterError, match=message):
        service_url(services, "gold")


def test_ready_replicas_counts_ready_pods_only():
    assert ready_replicas([]) == 0
    assert ready_replicas([{"status": {}}, {"status": {"readyReplicas": 3}}]) == 3
