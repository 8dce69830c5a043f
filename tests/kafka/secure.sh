# The secured variant of the test broker (sourced by tests/kafka/broker, not run).
#
# Listeners: SECURE (SASL_SSL, for the clients under test), INTERNAL (PLAINTEXT, inter-broker
# and test set-up: its anonymous principal is a super user, so only loopback may reach it)
# and CONTROLLER (PLAINTEXT). Everything is generated fresh into $dir on each start:
#
#   tls/ca.pem             the CA that signed the broker's and the client's certificates
#   tls/broker.pem         the broker certificate, SAN IP:127.0.0.1 and DNS:localhost
#   tls/client.pem, .key   a client certificate; the key is encrypted with a passphrase
#   tls/other-ca.pem       a CA that signed nothing here: a client trusting only it fails
#   clients/USER.properties       librdkafka properties (--command-config) for each user
#   clients/USER.java.properties  the same for Kafka's Java tools (--command-config)
#   bootstrap              the SASL_SSL address; bootstrap-internal the PLAINTEXT one
#
# Users (passwords are random per start, found only in the clients/ files, mode 600):
#   admin  SCRAM-SHA-512 and PLAIN, super user
#   alice  SCRAM-SHA-512, everything on every topic and group; her file carries the
#          client certificate and its key passphrase
#   bob    PLAIN, the same rights as alice
#   carol  SCRAM-SHA-512, may describe groups and topics but never touch __consumer_offsets
#   dave   SCRAM-SHA-512, may describe groups and topics but not alter a group's offsets
#
# OAUTHBEARER is enabled too, with Kafka's unsecured validator: an unsigned JWT whose "sub"
# is one of the users above logs in as that user (clients build their own token; no file).
# Its sessions last as long as the token, at most 10 minutes (connections.max.reauth.ms).

secure_users=(admin alice bob carol dave)

random_secret() { openssl rand -hex 16; }

# A CA, a broker certificate for 127.0.0.1/localhost, a client certificate with an encrypted
# key, and an unrelated CA. The broker's keystore is PKCS12 (openssl writes it, Java reads it).
make_certificates() {
  local tls="$dir/tls" store_password="$1" key_passphrase="$2"
  rm -rf "$tls"
  mkdir -p "$tls"
  chmod 700 "$tls"
  local quiet=(-batch)
  openssl req "${quiet[@]}" -x509 -newkey rsa:2048 -nodes -days 30 -subj "/CN=Groupscope test CA" \
    -keyout "$tls/ca.key" -out "$tls/ca.pem" 2>/dev/null
  openssl req "${quiet[@]}" -x509 -newkey rsa:2048 -nodes -days 30 -subj "/CN=Untrusted test CA" \
    -keyout "$tls/other-ca.key" -out "$tls/other-ca.pem" 2>/dev/null

  openssl req "${quiet[@]}" -newkey rsa:2048 -nodes -subj "/CN=localhost" \
    -keyout "$tls/broker.key" -out "$tls/broker.csr" 2>/dev/null
  printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n' >"$tls/broker.ext"
  openssl x509 -req -in "$tls/broker.csr" -CA "$tls/ca.pem" -CAkey "$tls/ca.key" -CAcreateserial \
    -days 30 -extfile "$tls/broker.ext" -out "$tls/broker.pem" 2>/dev/null
  openssl pkcs12 -export -in "$tls/broker.pem" -inkey "$tls/broker.key" -certfile "$tls/ca.pem" \
    -name broker -out "$tls/broker.p12" -passout "pass:$store_password"

  openssl req "${quiet[@]}" -newkey rsa:2048 -nodes -subj "/CN=alice" \
    -keyout "$tls/client-plain.key" -out "$tls/client.csr" 2>/dev/null
  printf 'extendedKeyUsage=clientAuth\n' >"$tls/client.ext"
  openssl x509 -req -in "$tls/client.csr" -CA "$tls/ca.pem" -CAkey "$tls/ca.key" -CAcreateserial \
    -days 30 -extfile "$tls/client.ext" -out "$tls/client.pem" 2>/dev/null
  openssl pkcs8 -topk8 -v2 aes-256-cbc -in "$tls/client-plain.key" -out "$tls/client.key" \
    -passout "pass:$key_passphrase"
  rm -f "$tls/client-plain.key" "$tls"/*.csr "$tls"/*.ext "$tls"/*.srl
}

# server.properties for the three listeners, SCRAM and PLAIN, TLS and the authorizer.
write_secure_config() {
  local internal_port="$1" secure_port="$2" controller_port="$3" store_password="$4"
  local -n passwords_ref="$5"
  write_config "$internal_port" "$controller_port"
  # Replace the plain listener lines of the common configuration with the secured ones.
  sed -i -e '/^listeners=/d' -e '/^advertised.listeners=/d' -e '/^listener.security.protocol.map=/d' \
    -e '/^inter.broker.listener.name=/d' "$dir/server.properties"
  cat >>"$dir/server.properties" <<PROPS
listeners=INTERNAL://127.0.0.1:$internal_port,SECURE://127.0.0.1:$secure_port,CONTROLLER://127.0.0.1:$controller_port
advertised.listeners=INTERNAL://127.0.0.1:$internal_port,SECURE://127.0.0.1:$secure_port
listener.security.protocol.map=INTERNAL:PLAINTEXT,SECURE:SASL_SSL,CONTROLLER:PLAINTEXT
inter.broker.listener.name=INTERNAL
sasl.enabled.mechanisms=SCRAM-SHA-512,PLAIN,OAUTHBEARER
listener.name.secure.sasl.enabled.mechanisms=SCRAM-SHA-512,PLAIN,OAUTHBEARER
listener.name.secure.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;
listener.name.secure.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required user_admin="${passwords_ref[admin]}" user_bob="${passwords_ref[bob]}";
# OAUTHBEARER with Kafka's unsecured validator (the default without a server callback
# handler): it accepts an unsigned JWT ("alg":"none") whose "sub" names the user and whose
# "exp" lies ahead. The broker's own login token (never used: inter-broker traffic is on
# INTERNAL) needs a subject all the same.
listener.name.secure.oauthbearer.sasl.jaas.config=org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required unsecuredLoginStringClaim_sub="admin";
# An OAUTHBEARER session ends with its token (KIP-368): the client must log in anew.
listener.name.secure.oauthbearer.connections.max.reauth.ms=600000
ssl.keystore.type=PKCS12
ssl.keystore.location=$dir/tls/broker.p12
ssl.keystore.password=$store_password
ssl.key.password=$store_password
ssl.truststore.type=PEM
ssl.truststore.location=$dir/tls/ca.pem
# A client certificate is checked when one is presented; SASL names the principal.
ssl.client.auth=requested
authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer
# ANONYMOUS is the principal of the PLAINTEXT listeners (controller, inter-broker, set-up).
super.users=User:admin;User:ANONYMOUS
allow.everyone.if.no.acl.found=false
PROPS
  chmod 600 "$dir/server.properties"
}

# --add-scram arguments for kafka-storage format: every user but bob (who is PLAIN only).
scram_format_arguments() {
  local -n passwords_ref="$1"
  local user
  for user in admin alice carol dave; do
    printf '%s\n' --add-scram "SCRAM-SHA-512=[name=$user,password=${passwords_ref[$user]}]"
  done
}

# Client configurations per user, for librdkafka (groupscope-cli, kcat -F) and for Java.
write_client_configs() {
  local secure_port="$1" key_passphrase="$2"
  local -n passwords_ref="$3"
  local clients="$dir/clients" user mechanism module
  rm -rf "$clients"
  mkdir -p "$clients"
  chmod 700 "$clients"
  for user in "${secure_users[@]}"; do
    mechanism=SCRAM-SHA-512
    module=org.apache.kafka.common.security.scram.ScramLoginModule
    if [ "$user" = bob ]; then
      mechanism=PLAIN
      module=org.apache.kafka.common.security.plain.PlainLoginModule
    fi
    (
      umask 077
      cat >"$clients/$user.properties" <<PROPS
bootstrap.servers=127.0.0.1:$secure_port
security.protocol=SASL_SSL
sasl.mechanism=$mechanism
sasl.username=$user
sasl.password=${passwords_ref[$user]}
ssl.ca.location=$dir/tls/ca.pem
PROPS
      if [ "$user" = alice ]; then
        cat >>"$clients/$user.properties" <<PROPS
ssl.certificate.location=$dir/tls/client.pem
ssl.key.location=$dir/tls/client.key
ssl.key.password=$key_passphrase
PROPS
      fi
      cat >"$clients/$user.java.properties" <<PROPS
security.protocol=SASL_SSL
sasl.mechanism=$mechanism
sasl.jaas.config=$module required username="$user" password="${passwords_ref[$user]}";
ssl.truststore.type=PEM
ssl.truststore.location=$dir/tls/ca.pem
PROPS
    )
  done
}

# ACLs, created through the INTERNAL listener (its anonymous principal is a super user).
create_acls() {
  local classpath="$1" internal="$2"
  # Kafka 4 moved the ACL tool from the broker's Scala code to the tools module.
  local acl_class=org.apache.kafka.tools.AclCommand
  [ "$(kafka_release)" != 3.9 ] || acl_class=kafka.admin.AclCommand
  local acl=(java -Xmx256m -cp "$classpath" "$(kafka_logging_option "$testbed_dir/tools-log4j")"
             "$acl_class" --bootstrap-server "$internal" --add --force)
  {
    "${acl[@]}" --allow-principal User:alice --allow-principal User:bob --operation All \
      --topic '*' --group '*'
    "${acl[@]}" --allow-principal User:alice --allow-principal User:bob \
      --allow-principal User:carol --allow-principal User:dave --operation Describe \
      --cluster --topic '*' --group '*'
    # A deny wins over every allow: carol cannot even see the offsets topic's metadata.
    "${acl[@]}" --deny-principal User:carol --operation All --topic __consumer_offsets
  } >"$dir/acls.out" 2>&1 || { echo "creating ACLs failed: see $dir/acls.out" >&2; return 1; }
}

# True when the SASL_SSL listener answers the admin user (SCRAM-SHA-512) with certificate
# and host name verification on. The probe is python3-kafka, not kcat: Debian's kcat runs
# on librdkafka 2.0.2, whose SCRAM client-final-message repeats the client nonce after the
# server's (fixed in librdkafka 2.6.1). Kafka 3.8.1 to 3.9 accept that nonce (they check
# only its end); Kafka 4 requires the exact server nonce (RFC 5802), so every SCRAM login
# of that kcat fails there with "invalid credentials". The password is read from the
# client file, never passed on a command line.
answers_securely() {
  /usr/bin/python3 - "$dir/clients/admin.properties" >/dev/null 2>&1 <<'PY'
import sys
from kafka import KafkaAdminClient
props = dict(line.rstrip("\n").split("=", 1) for line in open(sys.argv[1]) if "=" in line)
admin = KafkaAdminClient(
    bootstrap_servers=props["bootstrap.servers"], security_protocol="SASL_SSL",
    sasl_mechanism=props["sasl.mechanism"], sasl_plain_username=props["sasl.username"],
    sasl_plain_password=props["sasl.password"], ssl_cafile=props["ssl.ca.location"],
    request_timeout_ms=5000, api_version_auto_timeout_ms=5000)
try:
    admin.describe_cluster()
finally:
    admin.close()
PY
}
