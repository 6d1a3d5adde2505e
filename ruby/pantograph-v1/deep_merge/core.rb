# frozen_string_literal: true

# Pantograph's stand-in for the `deep_merge` gem's `DeepMerge.deep_merge!`, loaded only when the gem is not
# installed (PDK depends on the gem, and pdk-templates' .rubocop.yml.erb requires 'deep_merge/core').
# Written for Pantograph from the gem's documented behaviour with the options PDK and pdk-templates use
# (knockout_prefix, preserve_unmergeables); the gem is preferred whenever it is there.
module DeepMerge
  class InvalidParameter < StandardError; end

  DEFAULT_FIELD_KNOCKOUT_PREFIX = '--'

  # Merges `source` into `dest` and returns the result; hashes and arrays of `dest` are changed in place.
  # Hashes merge key by key; arrays are unioned, a source element '<prefix>x' removing x, a bare '<prefix>'
  # emptying dest; anything else from source replaces dest (a string starting with the prefix empties it).
  def self.deep_merge!(source, dest, options = {})
    prefix = options[:knockout_prefix]
    overwrite = !options[:preserve_unmergeables]
    raise InvalidParameter, 'knockout_prefix cannot be an empty string in deep_merge!' if prefix == ''
    raise InvalidParameter, 'overwrite_unmergeable must be true if knockout_prefix is specified in deep_merge!' if prefix && !overwrite

    return dest if source.nil? && !options[:merge_nil_values]
    # A missing (or false) destination simply becomes the source.
    return source if !dest && overwrite

    case source
    when Hash then merge_hash(source, dest, options, overwrite)
    when Array then merge_array(source, dest, options, prefix, overwrite)
    else
      if dest.is_a?(Array) && options[:extend_existing_arrays]
        dest.push(source)
      else
        replace(source, dest, options)
      end
    end
  end

  def self.merge_hash(source, dest, options, overwrite)
    source.each do |key, value|
      if dest.is_a?(Hash)
        # A falsy value counts as absent: the source value is merged into a copy of itself.
        base = dest[key]
        unless base
          base = begin
            value.dup
          rescue TypeError
            value
          end
        end
        dest[key] = deep_merge!(value, base, options)
      elsif dest.is_a?(Array) && options[:extend_existing_arrays]
        dest.push(source)
      elsif overwrite
        dest = replace(source, dest, options)
      end
    end
    dest
  end

  def self.merge_array(source, dest, options, prefix, overwrite)
    return source if options[:overwrite_arrays]

    if (split = options[:unpack_arrays])
      source = source.join(split).split(split)
      dest = dest.join(split).split(split) if dest.is_a?(Array)
    end
    if prefix && source.index(prefix)
      dest = dest.respond_to?(:clear) ? dest.clear : nil
      source.delete(prefix)
    end
    if dest.is_a?(Array)
      if prefix
        pattern = /^#{prefix}/
        source.delete_if do |item|
          plain = item.respond_to?(:gsub) ? item.gsub(pattern, '') : item
          next false if plain == item

          dest.delete(plain)
          dest.delete(item)
          true
        end
      end
      dest = if options[:merge_hash_arrays] && source.all?(Hash) && dest.all?(Hash)
               merged = dest.each_index.map { |i| deep_merge!(source[i] || {}, dest[i], options) }
               merged + (source[dest.count..] || [])
             elsif options[:keep_array_duplicates]
               dest.concat(source)
             else
               dest | source
             end
      dest.sort! if options[:sort_merged_arrays]
      dest
    elsif overwrite
      replace(source, dest, options)
    else
      dest
    end
  end

  # What replaces an unmergeable destination: the source, without its knocked-out parts; a string the
  # prefix knocks out becomes ''.
  def self.replace(source, dest, options)
    prefix = options[:knockout_prefix]
    return options[:preserve_unmergeables] ? dest : source unless prefix && !options[:preserve_unmergeables]

    pattern = /^#{prefix}/
    case source
    when String
      stripped = source.gsub(pattern, '')
      stripped == source ? stripped : ''
    when Array
      source.delete_if { |item| item.is_a?(String) && item.match(pattern) }
    else
      source
    end
  end

  private_class_method :merge_hash, :merge_array, :replace
end
