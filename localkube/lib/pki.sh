# A real PKI: one cluster CA, a front-proxy CA for the aggregation layer, a serving or client
# certificate per component with its own identity, and the ServiceAccount signing key.
# Only the `super-admin` identity is in system:masters; localkube uses it once at bootstrap
# to bind the admin group to cluster-admin (as kubeadm does). Components never use it.
# shellcheck shell=bash

lk_openssl() { openssl "$@" 2>/dev/null; }

lk_pki_ca() { # name cn
  [ -f "$LK_PKI/$1.crt" ] && return 0
  lk_openssl genrsa -out "$LK_PKI/$1.key" 2048
  lk_openssl req -x509 -new -nodes -key "$LK_PKI/$1.key" -sha256 -days 3650 \
    -subj "/CN=$2" -addext "keyUsage=critical,keyCertSign,cRLSign,digitalSignature" \
    -addext "basicConstraints=critical,CA:TRUE" -out "$LK_PKI/$1.crt"
}

# name subject usage(server|client|both) sans(comma list, may be empty) [ca]
lk_pki_cert() {
  local name=$1 subj=$2 usage=$3 sans=$4 ca=${5:-ca}
  [ -f "$LK_PKI/$name.crt" ] && return 0
  local ext="$LK_PKI/$name.ext" eku
  case "$usage" in
    server) eku=serverAuth ;; client) eku=clientAuth ;; both) eku=serverAuth,clientAuth ;;
  esac
  {
    echo "basicConstraints=CA:FALSE"
    echo "keyUsage=critical,digitalSignature,keyEncipherment"
    echo "extendedKeyUsage=$eku"
    [ -n "$sans" ] && echo "subjectAltName=$sans"
  } > "$ext"
  lk_openssl genrsa -out "$LK_PKI/$name.key" 2048
  lk_openssl req -new -key "$LK_PKI/$name.key" -subj "$subj" -out "$LK_PKI/$name.csr"
  lk_openssl x509 -req -in "$LK_PKI/$name.csr" -CA "$LK_PKI/$ca.crt" -CAkey "$LK_PKI/$ca.key" \
    -CAcreateserial -days 825 -sha256 -extfile "$ext" -out "$LK_PKI/$name.crt"
  rm -f "$LK_PKI/$name.csr" "$ext"
}

lk_pki_kubeconfig() { # name cert-name
  local f="$LK_KUBECONFIGS/$1.kubeconfig" server
  server="https://$(lk_conf node.ip):$(lk_conf apiserver.secure-port)"
  mkdir -p "$LK_KUBECONFIGS"
  cat > "$f" <<EOF
apiVersion: v1
kind: Config
clusters:
- name: localkube
  cluster:
    certificate-authority: $LK_PKI/ca.crt
    server: $server
users:
- name: $1
  user:
    client-certificate: $LK_PKI/$2.crt
    client-key: $LK_PKI/$2.key
contexts:
- name: $1@localkube
  context: {cluster: localkube, user: $1}
current-context: $1@localkube
EOF
}

lk_pki_ensure() {
  local ip node svc_ip
  ip=$(lk_conf node.ip); node=$(lk_conf node.name)
  svc_ip=$(lk_service_ip 1)
  mkdir -p "$LK_PKI"; chmod 700 "$LK_PKI"
  # Certificates name the node IP; if it changed, start over rather than serve a wrong SAN.
  if [ -f "$LK_PKI/node-ip" ] && [ "$(cat "$LK_PKI/node-ip")" != "$ip" ]; then
    rm -rf "${LK_PKI:?}"/*
  fi
  echo "$ip" > "$LK_PKI/node-ip"
  lk_pki_ca ca localkube-ca
  lk_pki_ca front-proxy-ca localkube-front-proxy-ca
  lk_pki_cert etcd-server "/CN=etcd" server "IP:127.0.0.1,DNS:localhost"
  lk_pki_cert apiserver-etcd-client "/CN=kube-apiserver-etcd-client" client ""
  lk_pki_cert apiserver "/CN=kube-apiserver" server \
    "DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local,DNS:localhost,DNS:$node,IP:127.0.0.1,IP:$ip,IP:$svc_ip"
  lk_pki_cert apiserver-kubelet-client "/O=localkube:kubelet-api-clients/CN=kube-apiserver-kubelet-client" client ""
  lk_pki_cert front-proxy-client "/CN=front-proxy-client" client "" front-proxy-ca
  lk_pki_cert super-admin "/O=system:masters/CN=localkube-super-admin" client ""
  lk_pki_cert admin "/O=localkube:cluster-admins/CN=localkube-admin" client ""
  lk_pki_cert controller-manager "/CN=system:kube-controller-manager" client ""
  lk_pki_cert scheduler "/CN=system:kube-scheduler" client ""
  lk_pki_cert kube-proxy "/CN=system:kube-proxy" client ""
  lk_pki_cert kubelet-client "/O=system:nodes/CN=system:node:$node" client ""
  lk_pki_cert kubelet-server "/CN=$node" server "DNS:$node,DNS:localhost,IP:$ip,IP:127.0.0.1"
  lk_pki_cert metrics-server "/CN=system:metrics-server" both \
    "DNS:metrics-server,DNS:metrics-server.kube-system,DNS:metrics-server.kube-system.svc,IP:$ip"
  lk_pki_cert controller-manager-server "/CN=kube-controller-manager" server "DNS:localhost,IP:127.0.0.1"
  lk_pki_cert scheduler-server "/CN=kube-scheduler" server "DNS:localhost,IP:127.0.0.1"
  [ -f "$LK_PKI/sa.key" ] || { lk_openssl genrsa -out "$LK_PKI/sa.key" 2048; lk_openssl rsa -in "$LK_PKI/sa.key" -pubout -out "$LK_PKI/sa.pub"; }
  local k
  for k in super-admin admin controller-manager scheduler kube-proxy metrics-server; do lk_pki_kubeconfig "$k" "$k"; done
  lk_pki_kubeconfig kubelet kubelet-client
  chmod 600 "$LK_PKI"/*.key
}

# The N-th address of the service CIDR (1 = the `kubernetes` Service).
lk_service_ip() {
  local base=${LK_CONF[node.service-cidr]%/*}
  IFS=. read -r a b c d <<< "$base"
  echo "$a.$b.$c.$((d + $1))"
}
