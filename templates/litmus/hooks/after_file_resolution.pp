# Disabled: no litmus files either.
$state['settings']['enabled'] ? {
  true    => $state,
  default => $state + { 'files_to_render' => [] },
}
