# frozen_string_literal: true

# Stand-in for `require 'deep_merge'` when the gem is missing: DeepMerge and the Hash methods the gem adds,
# which PDK had loaded when templates ran.
require 'deep_merge/core'

class Hash
  def ko_deep_merge!(source, options = {})
    DeepMerge.deep_merge!(source, self, { knockout_prefix: DeepMerge::DEFAULT_FIELD_KNOCKOUT_PREFIX, preserve_unmergeables: false }.merge(options))
  end

  def deep_merge!(source, options = {})
    DeepMerge.deep_merge!(source, self, { preserve_unmergeables: false }.merge(options))
  end

  def deep_merge(source, options = {})
    DeepMerge.deep_merge!(source, self, { preserve_unmergeables: true }.merge(options))
  end
end
